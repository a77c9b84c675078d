import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backOfficeLine } from '../../src/service/admin/announce.js';
import { cliArgs } from '../helpers/cli.js';
import { copyDataDir, killServices, spawnService, startTestService, templateDataDir, type TestService } from '../helpers/service.js';
import { postSignIn } from './support/session.js';

/**
 * The back office's users: a deployment's first one made with `invoicekit users create`, and a
 * seeded demo's owner, whose sign-in the start prints.
 */
let dataDir: string;
let service: TestService;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-users-'));
  await copyDataDir(await templateDataDir(false), dataDir);
  service = await startTestService();
}, 90_000);
afterAll(async () => {
  killServices();
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** `invoicekit …` run to its end, with `stdin` written to it. */
function invoicekit(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...cliArgs(), ...args], { env: { ...process.env, DATABASE_URL: '' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('invoicekit users create', () => {
  it('makes a user who signs in at /admin/, the password read from stdin', async () => {
    const created = await invoicekit(['users', 'create', '--login', 'jan', '--email', 'jan@sklep.example', '--data-dir', dataDir], 'pierwsze hasło sklepu\n');
    expect(created).toEqual({ code: 0, stdout: 'user jan <jan@sklep.example> of account demo may sign in at /admin/\n', stderr: '' });

    const refused = await invoicekit(['users', 'create', '--login', 'ola', '--email', 'ola@sklep', '--password', 'krótkie', '--data-dir', dataDir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('email is not an e-mail address; password is too short (minimum is 8 characters)\n');
    const taken = await invoicekit(['users', 'create', '--login', 'JAN2', '--email', 'Jan@Sklep.example', '--password', 'inne długie hasło', '--data-dir', dataDir]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toBe('the login "JAN2" or the e-mail "Jan@Sklep.example" is taken\n');

    // The service then starts on the same folder: the address is printed, and no demo owner is made beside a real user.
    const running = await spawnService(['--data-dir', dataDir, '--seed'], { DATABASE_URL: '' });
    expect(running.output()).toContain(`back office on ${running.url}/admin/\n`);
    expect(running.output()).not.toContain('sign in as');
    const signIn = await postSignIn({ url: running.url }, 'jan@sklep.example', 'pierwsze hasło sklepu');
    expect(signIn.status).toBe(200);
    expect(((await signIn.json()) as { account: unknown }).account).toEqual({ prefix: 'demo', name: 'Demo Studio Sp. z o.o.' });
    running.child.kill('SIGTERM');
    await running.exited;
  }, 120_000);
});

describe('the demo owner', () => {
  it('is made for a seeded demo with no user, and its sign-in printed while its password is the demo\'s', async () => {
    expect(await backOfficeLine(service, { seed: false })).toBe(`back office on ${service.url}/admin/`);
    const line = `back office on ${service.url}/admin/ (sign in as owner, password invoicekit-demo)`;
    expect(await backOfficeLine(service, { seed: true })).toBe(line);
    expect(await backOfficeLine(service, { seed: true })).toBe(line);
    const signIn = await postSignIn(service, 'owner', 'invoicekit-demo');
    expect(signIn.status).toBe(200);
    expect(((await signIn.json()) as { user: unknown }).user).toEqual({ login: 'owner', email: 'owner@demo-studio.example' });
    expect(await service.db.query('select login from users order by id')).toEqual([{ login: 'owner' }]);

    // A changed password is no longer printed.
    await service.db.query(`update users set password_hash = 'scrypt$changed' where login = 'owner'`);
    expect(await backOfficeLine(service, { seed: true })).toBe(`back office on ${service.url}/admin/`);
  });
});
