import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILT = join(ROOT, 'dist/lib/cli.js');
const SOURCES = join(ROOT, 'src');

/**
 * The arguments after `node` that run our command line (`invoicekit …`) in a child process: the
 * compiled `dist/lib/cli.js` when the build is newer than every file under `src/` (as in `npm test`,
 * which builds first), otherwise the sources through tsx, so a test never runs a build older than
 * the code it is meant to test. The compiled command is the one users run, and a child started
 * through tsx costs 1.5 to 3 CPU-s more (docs/measurements/test-suite-time.md).
 * `INVOICEKIT_TEST_CLI=sources` or `=build` chooses.
 */
export function cliArgs(): string[] {
  return useBuild() ? [BUILT] : ['--import', 'tsx', join(SOURCES, 'cli.ts')];
}

let decided: boolean | undefined;
function useBuild(): boolean {
  const chosen = process.env.INVOICEKIT_TEST_CLI;
  if (chosen === 'sources') return false;
  if (chosen === 'build') {
    if (!statSync(BUILT, { throwIfNoEntry: false })) throw new Error('INVOICEKIT_TEST_CLI=build, but dist/lib/cli.js is missing: run npm run build');
    return true;
  }
  // Decided once per test process: the sources do not change while it runs.
  decided ??= isBuildCurrent();
  return decided;
}

function isBuildCurrent(): boolean {
  const built = statSync(BUILT, { throwIfNoEntry: false });
  if (!built) return false;
  for (const entry of readdirSync(SOURCES, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    // `parentPath` from Node 20.12, `path` before.
    const parent = entry.parentPath ?? (entry as unknown as { path: string }).path;
    if (statSync(join(parent, entry.name)).mtimeMs > built.mtimeMs) return false;
  }
  return true;
}
