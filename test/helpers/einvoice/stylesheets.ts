import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const XSLT3 = fileURLToPath(new URL('../../../node_modules/xslt3/xslt3.js', import.meta.url));
/**
 * Stylesheets compiled once and kept with the test data, gzipped, by the same key: a fresh clone's
 * `npm test` compiles none of the artefacts it carries (about 70 CPU-s saved). A stylesheet that
 * changed (a new artefact, a change in our Schematron compiler, another SaxonJS) has another key and
 * is compiled as before; `INVOICEKIT_EINVOICE_KEEP_SEF=1` writes what was compiled here.
 */
const PRECOMPILED = fileURLToPath(new URL('../../fixtures/einvoice/compiled/', import.meta.url));
const SAXON_VERSION = (JSON.parse(await readFile(fileURLToPath(new URL('../../../node_modules/xslt3/package.json', import.meta.url)), 'utf8')) as { version: string }).version;
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
  const key = createHash('sha256').update(`xslt3 ${SAXON_VERSION}\n`).update(xslt).digest('hex');
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
  const kept = await readFile(join(PRECOMPILED, `${key}.sef.json.gz`)).catch(() => undefined);
  if (kept) return JSON.parse(gunzipSync(kept).toString('utf8')) as unknown;
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
        await handle.writeFile(String(process.pid));
        // Another process may have finished between our read and our lock.
        const late = await readJson(target);
        if (late !== undefined) return late;
        await compile(xslt, folder, key, target);
        const text = await readFile(target, 'utf8');
        if (process.env.INVOICEKIT_EINVOICE_KEEP_SEF === '1') {
          await mkdir(PRECOMPILED, { recursive: true });
          await writeFile(join(PRECOMPILED, `${key}.sef.json.gz`), gzipSync(text, { level: 9 }));
        }
        return JSON.parse(text) as unknown;
      } finally {
        await handle.close();
        await rm(lock, { force: true });
      }
    }
    if (await isStale(lock)) await rm(lock, { force: true });
    else await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** A lock whose process has ended (a test run stopped mid-compile), or that is older than any compile. */
async function isStale(lock: string): Promise<boolean> {
  const held = await stat(lock).catch(() => undefined);
  if (!held) return false;
  if (Date.now() - held.mtimeMs > STALE_LOCK_MS) return true;
  const owner = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
  if (!Number.isInteger(owner) || owner <= 0) return false; // being written
  try {
    process.kill(owner, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
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
