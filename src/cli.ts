#!/usr/bin/env -S npx tsx
import { parseArgs } from 'node:util';

/**
 * The `invoicekit` command:
 *   invoicekit service [--port 8787] [--host 127.0.0.1] [--data-dir DIR] [--seed]
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
      'public-url': { type: 'string' },
      seed: { type: 'boolean', default: false },
      'webhooks-allow-private': { type: 'boolean', default: false },
    },
    allowPositionals: false,
  });
  const { startService } = await import('./service/server.js');
  const service = await startService({
    port: Number(values.port),
    host: values.host,
    dataDir: values['data-dir'],
    databaseUrl: process.env.DATABASE_URL || undefined,
    apiToken: process.env.INVOICEKIT_API_TOKEN || undefined,
    integrationToken: process.env.INVOICEKIT_INTEGRATION_TOKEN || undefined,
    publicUrl: values['public-url'],
    smtpUrl: process.env.SMTP_URL || undefined,
    seed: values.seed,
    webhooks: webhookSettingsFromEnv(values['webhooks-allow-private']),
    log: (entry) => console.error(JSON.stringify(entry)),
  });
  if (!process.env.INVOICEKIT_API_TOKEN) console.log(`demo account api token: ${service.apiToken}`);
  if (!process.env.INVOICEKIT_INTEGRATION_TOKEN) console.log(`integration token: ${service.integrationToken}`);
  console.log(`invoicing service listening on ${service.url}`);
  onShutdown(() => service.close());
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
  if (retryBaseMs) settings.retryBaseMs = retryBaseMs;
  if (retryCapMs) settings.retryCapMs = retryCapMs;
  if (pollMs) settings.pollMs = pollMs;
  return settings;
}

function onShutdown(close: () => Promise<void>): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    close()
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
      console.error(`unknown command "${command}": use service, bff or dev`);
      process.exit(2);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
