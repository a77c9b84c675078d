#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { connectionLimitsFromEnv } from './server-kit/connection-limits.js';

/**
 * The `invoicekit` command:
 *   invoicekit service [--port 8787] [--host 127.0.0.1] [--data-dir DIR] [--seed] [--public-url URL]
 *                      [--trusted-hosts host,host] [--trust-proxy N] [--test-payments] [--skip-migrations] [--quiet]
 *                      [--ksef-local] [--ksef-local-port 8789]
 *   invoicekit migrate [--data-dir DIR]   applies the database migrations and exits (DATABASE_URL or PGlite)
 *   invoicekit secrets rotate [--data-dir DIR]   seals every secret at rest under a new key
 *   invoicekit users create --login L --email E [--password P] [--account PREFIX] [--data-dir DIR]
 *                      a user who signs in to the back office (`/admin/`); the password from stdin without --password
 *   invoicekit bff [--port 8788] [--service URL]
 *   invoicekit dev     the demo: service, BFF and demo pages together
 */
const [command = 'dev', ...rest] = process.argv.slice(2);

async function runService(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string', default: './.invoicekit/data' },
      'public-url': { type: 'string', default: process.env.INVOICEKIT_PUBLIC_URL || undefined },
      'trusted-hosts': { type: 'string', default: process.env.INVOICEKIT_TRUSTED_HOSTS || undefined },
      'trust-proxy': { type: 'string', default: process.env.INVOICEKIT_TRUST_PROXY || undefined },
      'test-payments': { type: 'boolean', default: /^(1|true|yes|on)$/i.test(process.env.INVOICEKIT_TEST_PAYMENTS ?? '') },
      seed: { type: 'boolean', default: false },
      'skip-migrations': { type: 'boolean', default: process.env.INVOICEKIT_MIGRATE === 'false' },
      'quiet': { type: 'boolean', default: false },
      'webhooks-allow-private': { type: 'boolean', default: false },
      'ksef-local': { type: 'boolean', default: /^(1|true|yes|on)$/i.test(process.env.INVOICEKIT_KSEF_LOCAL ?? '') },
      'ksef-local-port': { type: 'string', default: process.env.INVOICEKIT_KSEF_LOCAL_PORT || undefined },
    },
    allowPositionals: false,
  });
  const { startService } = await import('./service/server.js');
  const { mailTransportUrl } = await import('./service/documents/mailer.js');
  // The bundled KSeF double (the `local` environment) listens on its own port: a fixed one (8789)
  // keeps QR links valid across restarts; with an ephemeral service port it takes one too.
  const { startLocalKsef, connectAccountToLocalKsef, localKsefRefusal } = await import('./service/ksef/local.js');
  const ksefPort = values['ksef-local-port'] ?? (Number(values.port) === 0 ? '0' : '8789');
  // The service starts first, so that a data folder in use stops a second one before anything listens.
  let localKsef: Awaited<ReturnType<typeof startLocalKsef>> | undefined;
  const { withPortFlag } = await import('./bff/listen-errors.js');
  const service = await withPortFlag(startService({
    port: Number(values.port),
    host: values.host,
    dataDir: values['data-dir'],
    databaseUrl: process.env.DATABASE_URL || undefined,
    apiToken: process.env.INVOICEKIT_API_TOKEN || undefined,
    integrationToken: process.env.INVOICEKIT_INTEGRATION_TOKEN || undefined,
    publicUrl: values['public-url'],
    trustedHosts: values['trusted-hosts']?.split(',').map((host) => host.trim()).filter(Boolean),
    trustProxy: values['trust-proxy'] ? Math.max(0, Math.floor(Number(values['trust-proxy'])) || 0) : undefined,
    secretKey: process.env.INVOICEKIT_SECRET_KEY || undefined,
    secretKeyFile: process.env.INVOICEKIT_SECRET_KEY_FILE || undefined,
    smtpUrl: mailTransportUrl(process.env.SMTP_URL || undefined, { from: process.env.INVOICEKIT_MAIL_FROM, perHour: process.env.INVOICEKIT_MAIL_PER_HOUR }),
    testPayments: values['test-payments'],
    seed: values.seed,
    migrate: !values['skip-migrations'],
    webhooks: webhookSettingsFromEnv(values['webhooks-allow-private']),
    connectionLimits: connectionLimitsFromEnv(process.env),
    log: (entry) => console.error(JSON.stringify(entry)),
    logRequests: !values.quiet,
    ...(values['ksef-local'] ? { ksef: { localOrigin: () => localKsef?.origin } } : {}),
    registries: registryUrlsFromEnv(),
  }), '--port', values.port);
  if (values['ksef-local']) {
    const refusal = await localKsefRefusal(service.db);
    if (refusal) {
      await service.close();
      throw new Error(refusal);
    }
    localKsef = await withPortFlag(startLocalKsef({ dataDir: values['data-dir'], port: Number(ksefPort) }), '--ksef-local-port', ksefPort);
    console.log(`local KSeF (test double) listening on ${localKsef.origin}; a token for a NIP: POST ${localKsef.origin}/local/tokens {"nip":"…"}`);
    if (values.seed) await connectAccountToLocalKsef(service.url, service.apiToken, localKsef);
  }
  if (!process.env.INVOICEKIT_API_TOKEN) console.log(`demo account api token: ${service.apiToken}`);
  if (!process.env.INVOICEKIT_INTEGRATION_TOKEN) console.log(`integration token: ${service.integrationToken}`);
  const { backOfficeLine } = await import('./service/admin/announce.js');
  console.log(await backOfficeLine(service, { seed: values.seed }));
  console.log(`invoicing service listening on ${service.url}`);
  onShutdown(async (signal) => {
    console.error(JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'draining', signal }));
    await service.close({ graceMs: SHUTDOWN_GRACE_MS });
    await localKsef?.close();
  });
}

/** `--webhooks-allow-private` or `INVOICEKIT_WEBHOOKS_ALLOW_PRIVATE=1`, and the retry timing from the environment. */
function webhookSettingsFromEnv(allowPrivate: boolean) {
  const number = (name: string) => {
    const value = Number(process.env[name]);
    return process.env[name] && Number.isFinite(value) && value > 0 ? value : undefined;
  };
  const settings: Record<string, number | boolean> = {
    allowPrivate: allowPrivate || ['1', 'true', 'yes'].includes((process.env.INVOICEKIT_WEBHOOKS_ALLOW_PRIVATE ?? '').toLowerCase()),
  };
  const retryBaseMs = number('INVOICEKIT_WEBHOOK_RETRY_BASE_MS');
  const retryCapMs = number('INVOICEKIT_WEBHOOK_RETRY_CAP_MS');
  const pollMs = number('INVOICEKIT_WEBHOOK_POLL_MS');
  const maxAttempts = number('INVOICEKIT_WEBHOOK_MAX_ATTEMPTS');
  const timeoutMs = number('INVOICEKIT_WEBHOOK_TIMEOUT_MS');
  if (maxAttempts) settings.maxAttempts = Math.floor(maxAttempts);
  if (timeoutMs) settings.timeoutMs = timeoutMs;
  if (retryBaseMs) settings.retryBaseMs = retryBaseMs;
  if (retryCapMs) settings.retryCapMs = retryCapMs;
  if (pollMs) settings.pollMs = pollMs;
  return settings;
}

/** `INVOICEKIT_NBP_API_URL`, `INVOICEKIT_VIES_API_URL`, `INVOICEKIT_MF_WHITELIST_URL`: the registers' addresses, else their public ones. */
function registryUrlsFromEnv() {
  return {
    nbpApiUrl: process.env.INVOICEKIT_NBP_API_URL || undefined,
    viesApiUrl: process.env.INVOICEKIT_VIES_API_URL || undefined,
    mfWhitelistUrl: process.env.INVOICEKIT_MF_WHITELIST_URL || undefined,
  };
}

async function runMigrate(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string', default: './.invoicekit/data' } } });
  const { openDatabase } = await import('./service/db.js');
  const { migrate, migrations } = await import('./service/migrations.js');
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: values['data-dir'] });
  try {
    await migrate(db);
    console.log(`database is at migration ${migrations.at(-1)?.version ?? 0}`);
  } finally {
    await db.close();
  }
}

/**
 * `invoicekit secrets rotate`: every secret at rest sealed anew under a new key. With
 * `INVOICEKIT_SECRET_KEY` (a server) the new key is the first one it names: give every process
 * `new,old` first, so that they read both, then rotate, then drop the old key. Without it, a new
 * key goes first in the key file beside the data folder; a running service that holds the folder
 * notices it within a second and seals everything under it, with no restart.
 */
async function runSecrets(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string', default: './.invoicekit/data' } }, allowPositionals: true });
  if (positionals[0] !== 'rotate') {
    console.error('usage: invoicekit secrets rotate [--data-dir DIR]');
    process.exit(2);
  }
  const { keyFileFor, loadSecretKeys, rotateKeyFile } = await import('./service/secrets/keys.js');
  const { currentKeyId } = await import('./service/secrets/keyring.js');
  const { sealStoredSecrets } = await import('./service/secrets/stored.js');
  const { openDatabase } = await import('./service/db.js');
  const { migrate } = await import('./service/migrations.js');
  const source = {
    secretKey: process.env.INVOICEKIT_SECRET_KEY || undefined,
    keyFile: process.env.INVOICEKIT_SECRET_KEY_FILE || undefined,
    dataDir: values['data-dir'],
    databaseUrl: process.env.DATABASE_URL || undefined,
  };
  const dataDir = source.dataDir;
  const keyFile = keyFileFor(source);
  if (keyFile) {
    loadSecretKeys(source);
    console.log(`new key ${rotateKeyFile(keyFile)} is first in ${keyFile}`);
  }
  loadSecretKeys(source);
  let db;
  try {
    db = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir });
  } catch (error) {
    const { DataDirInUseError } = await import('./service/data-lock.js');
    if (keyFile && error instanceof DataDirInUseError) {
      // The service that holds the folder watches its key file and re-seals everything itself.
      console.log(`the running service holding ${dataDir} seals every secret under the new key within seconds`);
      return;
    }
    throw new Error(`The database could not be opened (${error instanceof Error ? error.message : String(error)}).`, { cause: error });
  }
  try {
    await migrate(db);
    const sealed = await sealStoredSecrets(db);
    console.log(`${sealed} record(s) sealed anew under key ${currentKeyId()}`);
  } finally {
    await db.close();
  }
}

/** `invoicekit users create`: a user of an account (the demo's by default) who signs in to the back office. */
async function runUsers(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      login: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      account: { type: 'string', default: 'demo' },
      'data-dir': { type: 'string', default: './.invoicekit/data' },
    },
    allowPositionals: true,
  });
  if (positionals[0] !== 'create' || !values.login || !values.email) {
    console.error('usage: invoicekit users create --login L --email E [--password P] [--account PREFIX] [--data-dir DIR]   (the password from stdin without --password)');
    process.exit(2);
  }
  const password = values.password ?? (await passwordFromStdin());
  const { openDatabase } = await import('./service/db.js');
  const { migrate } = await import('./service/migrations.js');
  const { createAccountUser } = await import('./service/admin/users.js');
  const dataDir = values['data-dir'];
  let db;
  try {
    db = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir });
  } catch (error) {
    const { DataDirInUseError } = await import('./service/data-lock.js');
    if (error instanceof DataDirInUseError) throw new Error(`the service holding ${dataDir} is running: stop it, make the user, and start it again`, { cause: error });
    throw error;
  }
  try {
    await migrate(db);
    const user = await createAccountUser(db, { prefix: values.account, login: values.login, email: values.email, password });
    console.log(`user ${user.login} <${user.email}> of account ${values.account} may sign in at /admin/`);
  } finally {
    await db.close();
  }
}

/** The password typed or piped in: the first line of stdin. */
async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('password: ');
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}

/** How long requests in progress may take to finish after SIGTERM (`INVOICEKIT_SHUTDOWN_GRACE_MS`). */
const SHUTDOWN_GRACE_MS = Number(process.env.INVOICEKIT_SHUTDOWN_GRACE_MS ?? 10_000);

function onShutdown(close: (signal: string) => Promise<void>): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    close(signal)
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(`shutdown after ${signal} failed: ${String(error)}`);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

async function main(): Promise<void> {
  switch (command) {
    case 'service':
      return runService(rest);
    case 'migrate':
      return runMigrate(rest);
    case 'secrets':
      return runSecrets(rest);
    case 'users':
      return runUsers(rest);
    case 'bff': {
      const { runBff } = await import('./bff/cli.js');
      await runBff(rest);
      return;
    }
    case 'dev': {
      const { runDev } = await import('./dev.js');
      return runDev(rest);
    }
    default:
      console.error(`unknown command "${command}": use service, migrate, secrets, users, bff or dev`);
      process.exit(2);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
