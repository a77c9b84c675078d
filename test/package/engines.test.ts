import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

it('npm install of the repository warns of no unsupported engine on this Node', async () => {
  // The lockfile as a fresh clone has it, resolved without touching this checkout's node_modules.
  const dir = await mkdtemp(join(tmpdir(), 'invoicekit-engines-'));
  try {
    for (const file of ['package.json', 'package-lock.json']) await copyFile(join(ROOT, file), join(dir, file));
    const { stdout, stderr } = await run('npm', ['install', '--dry-run', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: dir,
      timeout: 120_000,
    });
    expect(`${stdout}\n${stderr}`).not.toContain('EBADENGINE');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 150_000);
