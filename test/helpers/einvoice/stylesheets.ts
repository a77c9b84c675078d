import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const XSLT3 = fileURLToPath(new URL('../../../node_modules/xslt3/xslt3.js', import.meta.url));
/** A compile takes about 15 CPU-s; a lock older than this belongs to a process that died. */
const STALE_LOCK_MS = 5 * 60_000;
const POLL_MS = 250;

const compiled = new Map<string, Promise<unknown>>();

/**
 * An XSLT stylesheet compiled by SaxonJS (`xslt3 -export`) to its SEF form, which SaxonJS runs.
 * Compiling the CEN stylesheets costs about 15 CPU-s each, so the SEF is kept on disk under the OS
 * temporary folder, named by the SHA-256 of the stylesheet's text: every test file of one run (and
 * every run sharing that folder) compiles each stylesheet once. A lock file (`open(…, 'wx')`) lets
 * one process compile while the others wait, and the SEF appears by an atomic rename, so nobody
 * reads half a file.
 */
export function compiledStylesheet(xslt: string): Promise<unknown> {
  const key = createHash('sha256').update(xslt).digest('hex');
  let sef = compiled.get(key);
  if (!sef) {
    sef = loadOrCompile(key, xslt);
    compiled.set(key, sef);
    sef.catch(() => compiled.delete(key));
  }
  return sef;
}

/** Where the compiled stylesheets are kept. */
export function cacheFolder(): string {
  return join(tmpdir(), 'invoicekit-einvoice-sef');
}

async function loadOrCompile(key: string, xslt: string): Promise<unknown> {
  const folder = cacheFolder();
  await mkdir(folder, { recursive: true });
  const target = join(folder, `${key}.sef.json`);
  const lock = join(folder, `${key}.lock`);
  for (;;) {
    const ready = await readJson(target);
    if (ready !== undefined) return ready;
    const handle = await open(lock, 'wx').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return undefined;
      throw error;
    });
    if (handle) {
      try {
        // Another process may have finished between our read and our lock.
        const late = await readJson(target);
        if (late !== undefined) return late;
        await compile(xslt, folder, key, target);
        return JSON.parse(await readFile(target, 'utf8')) as unknown;
      } finally {
        await handle.close();
        await rm(lock, { force: true });
      }
    }
    const held = await stat(lock).catch(() => undefined);
    if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await rm(lock, { force: true });
    else await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function compile(xslt: string, folder: string, key: string, target: string): Promise<void> {
  const unique = `${key}.${process.pid}.${Date.now()}`;
  const source = join(folder, `${unique}.xsl`);
  const partial = join(folder, `${unique}.sef.json`);
  await writeFile(source, xslt);
  try {
    await run(process.execPath, [XSLT3, `-xsl:${source}`, `-export:${partial}`, '-nogo', '-relocate:on'], {
      maxBuffer: 16 * 1024 * 1024,
    });
    await rename(partial, target);
  } finally {
    await rm(source, { force: true });
    await rm(partial, { force: true });
  }
}

async function readJson(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}
