import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';

/**
 * What the package test files share: the packages as users get them, `npm pack` of the built packages
 * (run `npm run build` first, as `npm test` does), installed from the tarballs into fresh projects
 * with no dev dependencies, one project per audience, their dependencies from the registry. Nothing
 * here reaches into the checkout but the tools a user's project would have of its own.
 */

export const run = promisify(execFile);
export const ROOT = resolve(import.meta.dirname, '../..');
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** Who installs what: `lit` alone (the yardstick for the elements), each package, and the whole product. */
export type Audience = 'lit' | 'elements' | 'bff' | 'service';

export interface Installed {
  /** The scratch folder every project sits in; removed by `stop`. */
  work: string;
  /** The project folder of each audience installed, `''` for the others. */
  projects: Record<Audience, string>;
  /** Bytes of each installed project's `node_modules`, as `du --apparent-size` counts them. */
  sizes: Partial<Record<Audience, number>>;
  /** Starts `npx <args>` (or a plain command) in `cwd` and resolves with the address its ready line names. */
  startCommand(cwd: string, args: string[], env: Record<string, string>, ready?: RegExp): Promise<{ url: string; child: ChildProcess }>;
  /** Ends every command started, and removes the projects. */
  stop(): Promise<void>;
}

/** Packs what `audiences` need and installs each audience's project, all at once. */
export async function installPackages(audiences: readonly Audience[]): Promise<Installed> {
  for (const path of ['dist/lib/cli.js', 'dist/packages/elements/package.json', 'dist/packages/bff/package.json']) {
    if (!existsSync(join(ROOT, path))) throw new Error(`${path} is missing: run npm run build first`);
  }
  const work = await mkdtemp(join(tmpdir(), 'invoicekit-packages-'));
  const commands: ChildProcess[] = [];
  const installed: Installed = {
    work,
    projects: { lit: '', elements: '', bff: '', service: '' },
    sizes: {},
    startCommand: (cwd, args, env, ready) => startCommand(commands, cwd, args, env, ready),
    async stop() {
      const running = commands.filter((child) => child.exitCode === null && child.signalCode === null);
      const exited = running.map((child) => new Promise((done) => child.once('exit', done)));
      // Each command runs in its own process group: npx and the command it starts go together.
      for (const child of running) process.kill(-child.pid!, 'SIGKILL');
      await Promise.all(exited);
      await rm(work, { recursive: true, force: true, maxRetries: 5 });
    },
  };
  try {
    await install(installed, audiences);
  } catch (error) {
    await installed.stop();
    throw error;
  }
  return installed;
}

async function install(installed: Installed, audiences: readonly Audience[]): Promise<void> {
  const tarballs = join(installed.work, 'tarballs');
  await mkdir(tarballs);
  const pack = async (dir: string) => {
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tarballs, ...NPM_FLAGS], { cwd: dir });
    return join(tarballs, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  };
  const packages: Record<Audience, () => Promise<string>> = {
    lit: async () => 'lit',
    elements: () => pack(join(ROOT, 'dist/packages/elements')),
    bff: () => pack(join(ROOT, 'dist/packages/bff')),
    service: () => pack(ROOT),
  };
  const specs = await Promise.all(audiences.map((audience) => packages[audience]()));

  const installOne = async (name: Audience, spec: string) => {
    const dir = join(installed.work, name);
    await mkdir(dir);
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: `try-${name}`, private: true, type: 'module' }));
    const { stderr } = await run('npm', ['install', ...NPM_FLAGS, '--loglevel=warn', spec], { cwd: dir, timeout: 240_000 });
    // A user's install of our packages warns of no unsupported engine either.
    if (stderr.includes('EBADENGINE')) throw new Error(`npm install ${name} warned:\n${stderr}`);
    installed.projects[name] = dir;
    installed.sizes[name] = await apparentSize(join(dir, 'node_modules'));
  };
  await Promise.all(audiences.map((audience, i) => installOne(audience, specs[i]!)));
  console.log(
    `installed size (apparent, node_modules): ${Object.entries(installed.sizes)
      .map(([name, bytes]) => `${name} ${(bytes / 1024 / 1024).toFixed(2)} MiB`)
      .join(', ')}`,
  );
}

async function startCommand(
  commands: ChildProcess[],
  cwd: string,
  args: string[],
  env: Record<string, string>,
  ready = /listening on (http:\/\/\S+)/,
): Promise<{ url: string; child: ChildProcess }> {
  const [command, ...rest] = args[0] === process.execPath ? args : ['npx', '--no-install', ...args];
  const child = spawn(command!, rest, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  commands.push(child);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${output}`)), 240_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
  return { url, child };
}

/** The first TypeScript example under `heading` in the README. */
export async function readmeExample(heading: string): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(heading);
  if (at < 0) throw new Error(`README.md has no "${heading}" section`);
  return /```ts\n([\s\S]*?)```/.exec(readme.slice(at))![1]!;
}

/** What a user's build does to a TypeScript example before Node runs it: types out, nothing else. */
export function toJavaScript(source: string): string {
  return ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true } }).outputText;
}

/** Bytes of every file under `dir`, as `du --apparent-size` counts them (links not followed). */
async function apparentSize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await apparentSize(path);
    else total += (await lstat(path)).size;
  }
  return total;
}
