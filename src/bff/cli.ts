import { parseArgs } from 'node:util';
import { withPortFlag } from './listen-errors.js';
import { startBff, type RunningBff } from './node.js';
import { jsonLineLogger } from './logger.js';
import { storesFromEnv } from './stores/index.js';

const USAGE = `Usage: invoicekit bff --service <url> [--port 8788] [--host 127.0.0.1] [--allow-origin <origin>]... [--base-path /bff] [--signup]
                      [--public-url https://shop.example] [--no-follow-writes]

Environment:
  INVOICEKIT_API_TOKEN      the account's api_token (required)
  INVOICEKIT_PORTAL_SECRET  the secret portal tokens are signed with, at least 32 characters (required)
  INVOICEKIT_ALLOWED_ORIGINS  comma-separated origins whose pages may call the BFF
  REDIS_URL                 share idempotency keys, rate limits and caches between BFF processes in Redis
  DATABASE_URL              or in PostgreSQL (when REDIS_URL is not set); otherwise they stay in memory
  INVOICEKIT_TRUST_PROXY    how many proxies in front set X-Forwarded-For/-Proto/-Host (default 0)
  INVOICEKIT_BFF_PUBLIC_URL  the BFF's address as browsers reach it, for absolute links (or --public-url)
  INVOICEKIT_SHUTDOWN_GRACE_MS  how long requests in progress may finish after SIGTERM (default 10000)
  INVOICEKIT_FOLLOW_WRITES  false: never follow a service on this host's write feed, ask it on every list (or --no-follow-writes)
  INVOICEKIT_NBP_API_URL    NBP's Web API (default https://api.nbp.pl)
  INVOICEKIT_VIES_API_URL   the VIES REST API (default https://ec.europa.eu/taxation_customs/vies/rest-api)
  INVOICEKIT_MF_WHITELIST_URL  the VAT white list API (default https://wl-api.mf.gov.pl)`;

/** `invoicekit bff`: runs the BFF alone in front of a service. Resolves once it listens. */
export async function runBff(argv: string[]): Promise<RunningBff> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '8788' },
      host: { type: 'string', default: '127.0.0.1' },
      service: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      'base-path': { type: 'string', default: '/bff' },
      'public-url': { type: 'string', default: process.env['INVOICEKIT_BFF_PUBLIC_URL'] || undefined },
      signup: { type: 'boolean', default: false },
      // A service on this host is followed over its write feed (`GET /changes`) unless this says not to.
      'no-follow-writes': { type: 'boolean', default: /^(0|false|no|off)$/i.test(process.env['INVOICEKIT_FOLLOW_WRITES'] ?? '') },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const fail = (message: string): never => {
    console.error(`${message}\n\n${USAGE}`);
    process.exit(2);
  };
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, not ${values.port}`);
  const serviceUrl = values.service ?? process.env['INVOICEKIT_SERVICE_URL'];
  if (!serviceUrl || !/^https?:\/\//.test(serviceUrl)) fail('--service <url> is required (e.g. http://127.0.0.1:8787)');
  const apiToken = process.env['INVOICEKIT_API_TOKEN'];
  if (!apiToken) fail('INVOICEKIT_API_TOKEN is not set');
  const portalSecret = process.env['INVOICEKIT_PORTAL_SECRET'];
  if (!portalSecret || portalSecret.length < 32) fail('INVOICEKIT_PORTAL_SECRET must be set to at least 32 characters');
  const allowedOrigins = [
    ...(values['allow-origin'] ?? []),
    ...(process.env['INVOICEKIT_ALLOWED_ORIGINS'] ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  ];

  const publicUrl = values['public-url'];
  if (publicUrl !== undefined && !/^https?:\/\/[^/]/.test(publicUrl)) fail(`--public-url must be an http(s) address, not ${publicUrl}`);
  const trustProxy = Number(process.env['INVOICEKIT_TRUST_PROXY'] ?? 0);
  if (!Number.isInteger(trustProxy) || trustProxy < 0) fail('INVOICEKIT_TRUST_PROXY must be a whole number');
  const stores = await storesFromEnv(process.env, {
    onError: (error) => jsonLineLogger({ time: new Date().toISOString(), level: 'error', msg: 'store connection failed', error: error instanceof Error ? error.message : String(error) }),
  });
  const bff = await withPortFlag(startBff({
    stores,
    trustProxy,
    publicUrl,
    port,
    host: values.host,
    serviceUrl: serviceUrl!,
    apiToken: apiToken!,
    portalSecret: portalSecret!,
    allowedOrigins,
    basePath: values['base-path'],
    signup: values.signup,
    registries: {
      nbpApiUrl: process.env['INVOICEKIT_NBP_API_URL'] || undefined,
      viesApiUrl: process.env['INVOICEKIT_VIES_API_URL'] || undefined,
      mfWhitelistUrl: process.env['INVOICEKIT_MF_WHITELIST_URL'] || undefined,
    },
    ...(values['no-follow-writes'] ? { followServiceWrites: false } : {}),
  }), '--port', port);
  console.log(`bff listening on ${bff.url}`);
  jsonLineLogger({ time: new Date().toISOString(), level: 'info', msg: 'stores', stores: stores.kind });
  const graceMs = Number(process.env['INVOICEKIT_SHUTDOWN_GRACE_MS'] ?? 10_000);
  const stop = () => {
    void bff
      .close({ graceMs })
      .then(() => stores.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    ...bff,
    close: async () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      await bff.close();
      await stores.close();
    },
  };
}
