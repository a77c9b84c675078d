#!/usr/bin/env -S npx tsx
import { parseArgs } from 'node:util';

/**
 * The `invoicekit` command:
 *   invoicekit service [--port 8787] [--host 127.0.0.1] [--data-dir DIR] [--seed] [--public-url URL]
 *                      [--trusted-hosts host,host] [--test-payments]
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
      'test-payments': { type: 'boolean', default: /^(1|true|yes|on)$/i.test(process.env.INVOICEKIT_TEST_PAYMENTS ?? '') },
      seed: { type: 'boolean', default: false },
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
    trustedHosts: values['trusted-hosts']?.split(',').map((host) => host.trim()).filter(Boolean),
    smtpUrl: process.env.SMTP_URL || undefined,
    testPayments: values['test-payments'],
    seed: values.seed,
    log: (entry) => console.error(JSON.stringify(entry)),
  });
  if (!process.env.INVOICEKIT_API_TOKEN) console.log(`demo account api token: ${service.apiToken}`);
  if (!process.env.INVOICEKIT_INTEGRATION_TOKEN) console.log(`integration token: ${service.integrationToken}`);
  console.log(`invoicing service listening on ${service.url}`);
  onShutdown(() => service.close());
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
