import { execFile } from 'node:child_process';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalKsef } from '../../src/service/ksef/local.js';
import { newSecretKey, openSecret, secretKeyOf, sealedWith, sealSecret, useSecretKeys } from '../../src/service/secrets/keyring.js';
import { keyFileFor, keyFileOf, loadSecretKeys, rotateKeyFile } from '../../src/service/secrets/keys.js';
import { startService } from '../../src/service/server.js';
import { cliArgs } from '../helpers/cli.js';
import { api } from '../helpers/http.js';
import { copyDataDir, killServices, spawnService, TEST_SECRET_KEY, templateDataDir } from '../helpers/service.js';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';

/**
 * Secrets at rest: every secret set through the API, then the stopped service's data folder
 * searched byte by byte for each of them, as it is and in base64, base64url and hex.
 */
const run = promisify(execFile);
const dirs: string[] = [];
const freshDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'invoicekit-secrets-'));
  dirs.push(dir, keyFileOf(dir));
  return dir;
};

afterAll(async () => {
  killServices();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  useSecretKeys([secretKeyOf(TEST_SECRET_KEY)]);
});

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path)));
    else found.push(path);
  }
  return found;
}

/** Each secret whose text, in any of its forms, some file under `dir` holds. */
async function secretsFoundIn(dir: string, secrets: Record<string, string>): Promise<string[]> {
  const forms = Object.entries(secrets).flatMap(([name, secret]) => {
    const bytes = Buffer.from(secret);
    return [secret, bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')].map((form) => ({ name, needle: Buffer.from(form) }));
  });
  const found = new Set<string>();
  for (const file of await filesUnder(dir)) {
    const content = await readFile(file);
    for (const { name, needle } of forms) if (content.includes(needle)) found.add(`${name} in ${file.slice(dir.length)}`);
  }
  return [...found];
}

describe('secrets at rest', () => {
  let dataDir: string;
  let secrets: Record<string, string>;

  beforeAll(async () => {
    dataDir = await freshDir();
    await copyDataDir(await templateDataDir(false), dataDir);
    const double = await startLocalKsef({});
    try {
      const apiToken = `secret-api-token-${newSecretKey().replace(/\W/g, '')}`;
      const integrationToken = `secret-integration-${newSecretKey().replace(/\W/g, '')}`;
      const service = await startService({ port: 0, dataDir, apiToken, integrationToken, ksef: { localOrigin: double.origin } });
      const shop = api({ url: service.url, apiToken });
      const certificate = double.issueOfflineCertificate('5252248481');
      secrets = {
        apiToken,
        integrationToken,
        stripeKey: 'sk_test_51SecretAtRestStripeKey0000000001',
        stripeWebhookSecret: 'whsec_SecretAtRestStripeWebhook0000000002',
        p24Crc: 'p24crcSecretAtRest000003',
        p24ApiKey: 'p24apiKeySecretAtRest00000000000000004',
        ksefToken: double.issueToken('5252248481'),
        offlinePrivateKey: certificate.privateKeyPem.split('\n').slice(1, 3).join(''),
        webhookSecret: 'whsec_SecretAtRestWebhook00000000000005',
        webhookApiToken: 'subscriber-token-SecretAtRest-00000006',
      };
      const set = [
        await shop.put('/account/payments.json', { payments: { provider: 'stripe', stripe: { secret_key: secrets.stripeKey, webhook_secret: secrets.stripeWebhookSecret } } }),
        await shop.put('/account/payments.json', { payments: { przelewy24: { merchant_id: 11111, pos_id: 11111, crc: secrets.p24Crc, api_key: secrets.p24ApiKey, sandbox: true } } }),
        await shop.put('/account/ksef.json', {
          ksef: { environment: 'local', token: secrets.ksefToken, offline_certificate: certificate.certificatePem, offline_private_key: certificate.privateKeyPem },
        }),
      ];
      // With an Idempotency-Key, as the typed client sends one: the answer, secret and all, is kept for replays.
      const hook = await fetch(`${service.url}/webhooks.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}`, 'idempotency-key': 'webhook-at-rest-1' },
        body: JSON.stringify({ webhook: { kind: 'invoice:create', url: 'https://hooks.example.com/in', secret: secrets.webhookSecret, api_token: secrets.webhookApiToken } }),
      });
      expect([...set.map((reply) => reply.status), hook.status]).toEqual([200, 200, 200, 201]);
      const replayed = await fetch(`${service.url}/webhooks.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}`, 'idempotency-key': 'webhook-at-rest-1' },
        body: JSON.stringify({ webhook: { kind: 'invoice:create', url: 'https://hooks.example.com/in', secret: secrets.webhookSecret, api_token: secrets.webhookApiToken } }),
      });
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(await replayed.json()).toMatchObject({ secret: secrets.webhookSecret, api_token: secrets.webhookApiToken });
      // The service still works with every one of them.
      expect((await shop.get('/account/payments.json')).body).toMatchObject({ payments: { stripe: { secret_key_set: true, key_mode: 'test' }, przelewy24: { crc_set: true } } });
      expect((await shop.get('/account/ksef.json')).body).toMatchObject({ ksef: { environment: 'local', token_set: true, offline_certificate_set: true } });
      expect((await shop.get('/webhooks.json')).body).toMatchObject([{ secret: secrets.webhookSecret, api_token: secrets.webhookApiToken }]);
      const signing = (await service.db.query<{ value: string }>(`select value from settings where key = 'signing_secret'`))[0]!.value;
      secrets.signingSecret = openSecret(signing);
      await service.close();
    } finally {
      await double.close();
    }
  }, 120_000);

  it('leaves none of them in the data folder, in any form', async () => {
    expect(await secretsFoundIn(dataDir, secrets)).toEqual([]);
  });

  it('keeps the key beside the data folder, owner-only', async () => {
    // The tests give the key through INVOICEKIT_SECRET_KEY; without it the service makes its key file.
    const dir = await freshDir();
    loadSecretKeys({ dataDir: dir }, {});
    const file = await stat(keyFileOf(dir));
    expect(file.mode & 0o777).toBe(0o600);
    expect(keyFileOf(dir)).toBe(`${dir}.key`);
    const sealed = sealSecret('kept apart');
    expect(openSecret(sealed)).toBe('kept apart');
    // A rotated key file is read by a process that met a value sealed with the new key.
    const newId = rotateKeyFile(keyFileOf(dir));
    const other = secretKeyOf((await readFile(keyFileOf(dir), 'utf8')).split('\n')[0]!);
    expect(other.id).toBe(newId);
    useSecretKeys([other]);
    const underNew = sealSecret('under the new key');
    expect(sealedWith(underNew)).toBe(newId);
    loadSecretKeys({ dataDir: dir }, {});
    expect(openSecret(underNew)).toBe('under the new key');
    expect(openSecret(sealed)).toBe('kept apart');
    useSecretKeys([secretKeyOf(TEST_SECRET_KEY)]);
  });

  it('makes the key file on a first start whose data folder has no parent yet, as `npm start` on a fresh clone', async () => {
    const dir = join(await freshDir(), 'not-yet', 'data');
    loadSecretKeys({ dataDir: dir }, {});
    expect((await stat(keyFileOf(dir))).mode & 0o777).toBe(0o600);
    useSecretKeys([secretKeyOf(TEST_SECRET_KEY)]);
  });

  it('asks for INVOICEKIT_SECRET_KEY on PostgreSQL, where several processes share the database', () => {
    expect(() => keyFileFor({ databaseUrl: 'postgres://db.example/invoicekit', dataDir: '/srv/data' }, {})).toThrow(
      'Secrets are sealed with a key kept outside the database, and on PostgreSQL several processes share it: set INVOICEKIT_SECRET_KEY ' +
        '(openssl rand -base64 32) to the same value in every process, or INVOICEKIT_SECRET_KEY_FILE to a file that holds it.',
    );
    expect(keyFileFor({ databaseUrl: 'postgres://db.example/invoicekit' }, { INVOICEKIT_SECRET_KEY_FILE: '/run/secrets/key' })).toBe('/run/secrets/key');
    expect(keyFileFor({ dataDir: '/srv/data' }, {})).toBe('/srv/data.key');
    expect(keyFileFor({ dataDir: '/srv/data' }, { INVOICEKIT_SECRET_KEY: TEST_SECRET_KEY })).toBeUndefined();
  });

  it('re-seals everything under a new key with `invoicekit secrets rotate`, and the service starts with the new key alone', async () => {
    const fresh = newSecretKey();
    // The data folder's own database, in the PostgreSQL pass too (where DATABASE_URL names another).
    const env = { ...process.env, INVOICEKIT_SECRET_KEY: `${fresh},${TEST_SECRET_KEY}`, DATABASE_URL: '' };
    const { stdout } = await run(process.execPath, [...cliArgs(), 'secrets', 'rotate', '--data-dir', dataDir], { env });
    expect(stdout).toMatch(/^\d+ record\(s\) sealed anew under key [0-9a-f]{8}\n$/);
    expect(Number(/^(\d+)/.exec(stdout)![1])).toBeGreaterThanOrEqual(5);
    const service = await startService({ port: 0, dataDir, secretKey: fresh });
    try {
      const shop = api({ url: service.url, apiToken: secrets.apiToken });
      expect((await shop.get('/webhooks.json')).body).toMatchObject([{ secret: secrets.webhookSecret }]);
      expect((await shop.get('/account/payments.json')).status).toBe(200);
      const oldId = secretKeyOf(TEST_SECRET_KEY).id;
      const values = await service.db.query<{ value: string }>(
        `select api_token as value from accounts union all select value from settings where key in ('integration_token', 'signing_secret')
         union all select token from ksef_settings where token is not null union all select data->>'secret' from webhooks`,
      );
      expect(values.length).toBeGreaterThanOrEqual(5);
      expect(values.filter((row) => sealedWith(row.value) !== secretKeyOf(fresh).id).map((row) => sealedWith(row.value))).toEqual([]);
      expect(values.some((row) => sealedWith(row.value) === oldId)).toBe(false);
    } finally {
      await service.close();
      useSecretKeys([secretKeyOf(TEST_SECRET_KEY)]);
    }
    expect(await secretsFoundIn(dataDir, secrets)).toEqual([]);
  }, 120_000);

  it('re-seals everything while the embedded service runs, when `invoicekit secrets rotate` meets the folder in use', async () => {
    // The embedded default: no INVOICEKIT_SECRET_KEY, the key in its file beside the data folder.
    const dir = await freshDir();
    const env = { INVOICEKIT_SECRET_KEY: '', INVOICEKIT_API_TOKEN: 'rotate-while-running-token-0001', DATABASE_URL: '' };
    const first = await spawnService(['--data-dir', dir], env);
    const hookSecret = 'whsec_RotateWhileRunning0000000000007';
    const shop = api({ url: first.url, apiToken: env.INVOICEKIT_API_TOKEN });
    expect((await shop.post('/webhooks.json', { webhook: { kind: 'invoice:create', url: 'https://hooks.example.com/in', secret: hookSecret } })).status).toBe(201);
    const oldKey = (await readFile(keyFileOf(dir), 'utf8')).trim();
    const rotated = await run(process.execPath, [...cliArgs(), 'secrets', 'rotate', '--data-dir', dir], { env: { ...process.env, ...env } });
    expect(rotated.stdout).toContain(`the running service holding ${dir} seals every secret under the new key within seconds`);
    const keys = (await readFile(keyFileOf(dir), 'utf8')).trim().split('\n');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(oldKey);
    // The service notices the new key, seals under it, and answers throughout.
    for (let waited = 0; !/sealed anew under the rotated key/.test(first.output()); waited += 100) {
      expect(waited, first.output()).toBeLessThan(20_000);
      expect((await shop.get('/webhooks.json')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(first.output()).toMatch(/"message":"[1-9]\d* secret\(s\) sealed anew under the rotated key"/);
    expect((await shop.get('/webhooks.json')).body).toMatchObject([{ secret: hookSecret }]);
    first.child.kill('SIGTERM');
    expect(await first.exited).toMatchObject({ code: 0 });
    // Proof that nothing is left under the old key: the old key is dropped, and everything still opens.
    await writeFile(keyFileOf(dir), `${keys[0]}\n`, { mode: 0o600 });
    const again = await spawnService(['--data-dir', dir], env);
    try {
      expect((await api({ url: again.url, apiToken: env.INVOICEKIT_API_TOKEN }).get('/webhooks.json')).body).toMatchObject([{ secret: hookSecret }]);
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
    expect(await secretsFoundIn(dir, { hookSecret, apiToken: env.INVOICEKIT_API_TOKEN })).toEqual([]);
  }, 180_000);

  it('seals secrets stored in clear before sealing existed, at the next start', async () => {
    const dir = await freshDir();
    await copyDataDir(await templateDataDir(false), dir);
    const first = await startService({ port: 0, dataDir: dir, apiToken: 'clear-token-from-an-old-version' });
    await first.db.query(`update accounts set api_token = 'clear-token-from-an-old-version', api_token_hash = null where prefix = 'demo'`);
    await first.db.query(`update settings set value = 'clear-integration-token-000' where key = 'integration_token'`);
    await first.close();
    const again = await startService({ port: 0, dataDir: dir });
    try {
      expect(again.apiToken).toBe('clear-token-from-an-old-version');
      expect(again.integrationToken).toBe('clear-integration-token-000');
      expect((await api({ url: again.url, apiToken: again.apiToken }).get('/clients.json')).status).toBe(200);
    } finally {
      await again.close();
    }
    expect(await secretsFoundIn(dir, { apiToken: 'clear-token-from-an-old-version', integrationToken: 'clear-integration-token-000' })).toEqual([]);
  }, 120_000);
});
