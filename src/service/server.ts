import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { capConnections, type ConnectionLimits, connectionLimits, connectionServerOptions } from '../server-kit/connection-limits.js';
import { createAccount, lockDemoAccountSetup, replaceTokenByPrefix, sealedTokenByPrefix } from './accounts.js';
import { createServiceApp } from './app.js';
import { createIssuing } from './application/composition.js';
import type { SellerAlertWorker } from './application/seller-alerts.js';
import { nbpRates } from './application/exchange-rates.js';
import type { ExchangeRateWorker } from './application/rate-worker.js';
import type { SettledListener } from './ksef/runtime.js';
import { createMailer } from './documents/mailer.js';
import { type Database, openDatabase } from './db.js';
import { putSetting, settingOr } from './data/settings.js';
import { createKsefClient } from './ksef/client.js';
import type { KsefGateway } from './ksef/gateway.js';
import { KsefSender } from './ksef/sender.js';
import { RecurringScheduler } from './invoicing/recurring-scheduler.js';
import { migrate } from './migrations.js';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings, WebhookWorker, webhookRowHooks } from './webhooks/deliveries.js';
import { randomToken } from './passwords.js';
import { identifyRawAnswers } from './raw-answers.js';
import { createRegistries, type RegistryOptions } from '../server-kit/registries/index.js';
import { openSecret, sealSecret } from './secrets/keyring.js';
import { loadSecretKeys, watchKeyFile } from './secrets/keys.js';
import { sealStoredSecrets, storedToken } from './secrets/stored.js';

export interface ServiceOptions {
  port?: number;
  host?: string;
  /** PGlite data folder; ignored when `databaseUrl` is set. */
  dataDir?: string;
  databaseUrl?: string;
  /** The demo account's api token; generated on first start when absent. */
  apiToken?: string;
  integrationToken?: string;
  /** Adds sample products, clients, invoices and payments to a new demo account. */
  seed?: boolean;
  /** The address links in answers, pages and e-mail use. Default: the address the service listens on. */
  publicUrl?: string | undefined;
  /** Hosts whose `Host` header may name the links' origin instead (see `ServiceAppOptions`). */
  trustedHosts?: readonly string[] | undefined;
  /** How many proxies in front append to `X-Forwarded-For` (`--trust-proxy`). Default 0. */
  trustProxy?: number | undefined;
  /**
   * The keys that seal secrets at rest, base64, newest first, separated by commas. Default
   * `INVOICEKIT_SECRET_KEY`; required on PostgreSQL, else a key file (see `secrets/keys.ts`).
   */
  secretKey?: string | undefined;
  /** The key file instead (`INVOICEKIT_SECRET_KEY_FILE`); default `<dataDir>.key` on PGlite. */
  secretKeyFile?: string | undefined;
  /** `smtp://…`: invoice e-mail goes through this server instead of the outbox. */
  smtpUrl?: string | undefined;
  /** Turns on the test payment provider (`--test-payments`). Off by default; `npm start` and tests turn it on. */
  testPayments?: boolean | undefined;
  log?: (entry: Record<string, unknown>) => void;
  /** Logs one structured entry per request through `log` (request id, method, path without query, status, time). */
  logRequests?: boolean;
  /**
   * Apply pending migrations on start (default). With `false` the service only checks that the
   * database is current and refuses to start otherwise: a deployment migrates once, then starts many.
   */
  migrate?: boolean;
  /** Webhook delivery settings; `allowPrivate` lets subscribers sit on loopback or private addresses. */
  webhooks?: Partial<WebhookSettings>;
  /** The clock recurring invoices are issued by (tests move it); the real one by default. */
  clock?: () => Date;
  /** How often the scheduler looks for recurring invoices that are due. Default one minute. */
  schedulerIntervalMs?: number;
  /** Request, header and idle timeouts and the connection cap (see `docs/security.md`). */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * KSeF: `localOrigin` is the bundled double's origin (`--ksef-local`), which makes the `local`
   * environment available; `gateway` replaces the KSeF API client. The clock is `clock`.
   */
  ksef?: { localOrigin?: string | (() => string | undefined); gateway?: KsefGateway; senderIntervalMs?: number };
  /**
   * Where NBP's exchange rates, VIES and the VAT white list are (`INVOICEKIT_NBP_API_URL`,
   * `INVOICEKIT_VIES_API_URL`, `INVOICEKIT_MF_WHITELIST_URL`). Default: their public addresses.
   */
  registries?: RegistryOptions;
  /** BLIK: `codeLifetimeMs` (default 120 000) and the test provider's `testApprovalMs` (default 2000); tests shorten them. */
  blik?: { codeLifetimeMs?: number; testApprovalMs?: number } | undefined;
}

export interface RunningService {
  url: string;
  prefix: string;
  apiToken: string;
  integrationToken: string;
  db: Database;
  /** True when this start created the demo account. */
  created: boolean;
  /** Sends webhook deliveries; `runOnce()` sends what is due now. */
  webhooks: WebhookWorker;
  /** Issues recurring invoices; `runDue()` issues what is due by the clock now. */
  scheduler: RecurringScheduler;
  /** Sends invoices to KSeF; `runOnce()` works on what is due now. */
  ksefSender: KsefSender;
  /** Completes invoices waiting for their NBP rate; `runOnce()` works on what is due now. */
  rateWorker: ExchangeRateWorker;
  /** Tells sellers of failed payments and failing webhooks and e-mails; `runOnce()` sweeps now. */
  sellerAlerts: SellerAlertWorker;
  /**
   * Answers a request in this process, as the listening server would but without a socket: a `fetch`
   * for a BFF or a typed client in the same process (`createBff({ serviceFetch: service.fetch })`).
   * Requests name the service's own `url`. Per-address limits see no address and count such calls
   * as one caller; the connection limits do not apply.
   */
  fetch: typeof fetch;
  /**
   * On PGlite, a count that moves before and after every write (this process makes them all); absent
   * on PostgreSQL, where other processes write too. A BFF in this process takes it as
   * `serviceWriteCount` and answers its held pages while it stands still.
   */
  writeCount?: () => number;
  /**
   * Stops: `/readyz` fails at once, no new connection is accepted, requests in progress get up to
   * `graceMs` (default 0) to finish, then the database closes.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export const DEMO_PREFIX = 'demo';

/** A secret setting (the integration token, the signing secret), kept sealed. */
async function setting(db: Database, key: string, wanted: string | undefined, make: () => string): Promise<string> {
  if (wanted) {
    await putSetting(db, key, sealSecret(wanted));
    return wanted;
  }
  return openSecret(await settingOr(db, key, sealSecret(make())));
}

/** Makes sure the demo account exists and carries the configured token. */
async function ensureDemoAccount(db: Database, apiToken: string | undefined): Promise<{ apiToken: string; created: boolean }> {
  return db.transaction(async (tx) => {
    await lockDemoAccountSetup(tx);
    const sealed = await sealedTokenByPrefix(tx, DEMO_PREFIX);
    if (sealed !== undefined) {
      const current = openSecret(sealed);
      if (apiToken && apiToken !== current) {
        await replaceTokenByPrefix(tx, DEMO_PREFIX, storedToken(apiToken));
        return { apiToken, created: false };
      }
      return { apiToken: current, created: false };
    }
    const account = await createAccount(tx, {
      prefix: DEMO_PREFIX,
      apiToken,
      company: {
        name: 'Demo Studio Sp. z o.o.',
        tax_no: '5252248481',
        street: 'ul. Prosta 51',
        post_code: '00-838',
        city: 'Warszawa',
        country: 'PL',
        email: 'billing@demo-studio.example',
        phone: '+48 22 100 20 30',
        bank: 'Bank Przykładowy S.A.',
        bank_account: 'PL61 1090 1014 0000 0712 1981 2874',
      },
    });
    return { apiToken: account.api_token, created: true };
  });
}

/** Opens the storage, migrates it, makes sure the demo account exists and starts listening. */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  // SMTP without the operator's sender refuses to start, before anything opens.
  if (options.smtpUrl) createMailer(options.smtpUrl);
  const keySource = { secretKey: options.secretKey, keyFile: options.secretKeyFile, dataDir: options.dataDir, databaseUrl: options.databaseUrl };
  loadSecretKeys(keySource);
  // Every write of a record queues its webhook deliveries in its own transaction and wakes the sender.
  let webhooksQueued = () => {};
  const rowHooks = [webhookRowHooks({ queued: () => webhooksQueued() })];
  const db = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir, rowHooks });
  try {
    if (options.migrate === false) await requireCurrentSchema(db);
    else await migrate(db);
    // Secrets stored in clear (before sealing existed) or under an older key are sealed anew.
    await sealStoredSecrets(db);
    const integrationToken = await setting(db, 'integration_token', options.integrationToken, () => randomToken());
    const demo = await ensureDemoAccount(db, options.apiToken);
    const signingSecret = await setting(db, 'signing_secret', undefined, () => randomToken(32));
    const webhookSettings = { ...DEFAULT_WEBHOOK_SETTINGS, ...options.webhooks };
    let listening = '';
    let draining = false;
    const clock = options.clock ?? (() => new Date());
    const given = options.ksef?.localOrigin;
    const localOrigin = typeof given === 'function' ? given : () => given;
    const ksefSender = new KsefSender(db, {
      gateway: options.ksef?.gateway ?? createKsefClient({ localOrigin, clock }),
      localOrigin,
      clock,
      log: options.log,
      intervalMs: options.ksef?.senderIntervalMs,
    });
    const ksefRuntime = { localOrigin, clock, kick: () => ksefSender.kick(), onSettled: (listener: SettledListener) => ksefSender.onSettled(listener) };
    const publicUrlOf = () => (options.publicUrl ?? listening).replace(/\/+$/, '');
    const registries = createRegistries({ clock, ...options.registries });
    // The seed issues through the registers the service asks, so its foreign-currency invoices take their NBP rate.
    if (options.seed && demo.created) {
      const { seedDemoAccount } = await import('./seed.js');
      await seedDemoAccount(db, DEMO_PREFIX, registries);
    }
    const { issuing, rateWorker, alertWorker } = createIssuing({ db, smtpUrl: options.smtpUrl, ksef: ksefRuntime, clock, publicUrl: publicUrlOf, rates: nbpRates(registries.nbp) });
    const app = createServiceApp({
      issuing,
      db,
      integrationToken,
      publicUrl: options.publicUrl ? options.publicUrl.replace(/\/+$/, '') : () => listening,
      trustedHosts: options.trustedHosts,
      trustProxy: options.trustProxy,
      smtpUrl: options.smtpUrl,
      testPayments: options.testPayments,
      signingSecret,
      log: options.log,
      draining: () => draining,
      allowPrivateWebhooks: webhookSettings.allowPrivate,
      clock: options.clock,
      ksef: ksefRuntime,
      registries,
      blik: options.blik,
    });
    const host = options.host ?? '127.0.0.1';
    const fetch = options.logRequests && options.log ? loggedFetch(app.fetch, options.log) : app.fetch;
    const limits = connectionLimits(options.connectionLimits);
    const server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve({ fetch, port: options.port ?? 8787, hostname: host, serverOptions: connectionServerOptions(limits) }, () => resolve(s));
      s.once('error', reject);
    });
    capConnections(server, limits);
    identifyRawAnswers(server, options.trustProxy ?? 0);
    const { port } = server.address() as AddressInfo;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    listening = url;
    const publicUrl = () => (options.publicUrl ?? url).replace(/\/$/, '');
    const webhooks = new WebhookWorker(db, webhookSettings, publicUrl);
    webhooksQueued = () => webhooks.kickSoon();
    webhooks.start();
    const scheduler = new RecurringScheduler(db, {
      clock: options.clock ?? (() => new Date()),
      intervalMs: options.schedulerIntervalMs ?? 60_000,
      publicUrl,
      log: options.log,
      issuing,
    });
    scheduler.start();
    rateWorker.start();
    alertWorker.start();
    ksefSender.start();
    // `invoicekit secrets rotate` beside a running embedded service: its new key seals everything at once.
    let resealing: Promise<unknown> = Promise.resolve();
    const stopWatchingKeys = watchKeyFile(keySource, () => {
      resealing = resealing
        .then(() => sealStoredSecrets(db))
        .then((count) => options.log?.({ level: 'info', message: `${count} secret(s) sealed anew under the rotated key` }))
        .catch((error: unknown) => options.log?.({ level: 'error', message: `re-sealing under the rotated key failed: ${error instanceof Error ? error.message : String(error)}` }));
    });
    return {
      url,
      prefix: DEMO_PREFIX,
      apiToken: demo.apiToken,
      integrationToken,
      db,
      created: demo.created,
      webhooks,
      scheduler,
      ksefSender,
      rateWorker,
      sellerAlerts: alertWorker,
      // A `fetch` takes what `Request` takes; the app takes a `Request` alone (its second argument is its env).
      fetch: async (input, init) => fetch(new Request(input, init)),
      ...(db.writeCount ? { writeCount: db.writeCount } : {}),
      async close({ graceMs = 0 } = {}) {
        draining = true;
        stopWatchingKeys();
        await Promise.all([webhooks.stop(), scheduler.stop(), ksefSender.stop(), rateWorker.stop(), alertWorker.stop(), resealing]);
        const http = server as { closeAllConnections?: () => void; closeIdleConnections?: () => void };
        await new Promise<void>((resolve) => {
          const force = setTimeout(() => http.closeAllConnections?.(), graceMs);
          server.close(() => {
            clearTimeout(force);
            resolve();
          });
          if (graceMs > 0) http.closeIdleConnections?.();
          else http.closeAllConnections?.();
        });
        await db.close();
      },
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

/** Fails the start when the database lacks a migration this code needs (`migrate: false`). */
async function requireCurrentSchema(db: Database): Promise<void> {
  const { appliedMigrationVersions, migrations } = await import('./migrations.js');
  const applied = await appliedMigrationVersions(db).then((versions) => new Set(versions), () => new Set<number>());
  const missing = migrations.filter((migration) => !applied.has(migration.version));
  if (missing.length) {
    throw new Error(`The database lacks ${missing.length} migration(s), from ${missing[0]!.version} (${missing[0]!.name}): run \`invoicekit migrate\` first.`);
  }
}

type Fetch = (request: Request, env?: unknown) => Response | Promise<Response>;

/** One JSON entry per request. The query is left out: it may carry the api_token. */
function loggedFetch(fetch: Fetch, log: (entry: Record<string, unknown>) => void): Fetch {
  return async (request, env) => {
    const started = performance.now();
    const response = await fetch(request, env);
    const status = response.status;
    log({
      time: new Date().toISOString(),
      level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
      msg: 'request',
      request_id: response.headers.get('x-request-id'),
      method: request.method,
      path: new URL(request.url).pathname,
      status,
      duration_ms: Math.round(performance.now() - started),
    });
    return response;
  };
}
