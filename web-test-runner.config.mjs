import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { tsImport } from 'tsx/esm/api';

/**
 * Element tests run in real Chromium against the real BFF and service, which the fixture plugin starts
 * with the test server and seeds through the typed client. The page reads the BFF's address, the
 * portal tokens and the seeded invoices from `/__portal/info`.
 */
const { chromiumPath } = await tsImport('./test/helpers/chromium.ts', import.meta.url);
const chromePath = chromiumPath();

function portalFixturePlugin() {
  let fixture;
  return {
    name: 'portal-fixture',
    async serverStart({ config }) {
      const { startPortalFixture } = await tsImport('./test/elements/support/portal-fixture.ts', import.meta.url);
      const origins = [`http://${config.hostname}:${config.port}`, `http://localhost:${config.port}`, `http://127.0.0.1:${config.port}`];
      fixture = await startPortalFixture({ pageOrigins: [...new Set(origins)] });
    },
    async serverStop() {
      await fixture?.stop();
    },
    async serve(context) {
      if (context.path === '/__portal/info') return { body: JSON.stringify(fixture.info), type: 'json' };
      const hold = /^\/__portal\/(hold|held\/.+)$/.exec(context.path);
      if (hold) return { body: JSON.stringify((await fixture.holds(hold[1], context.query)) ?? null), type: 'json' };
      const paid = /^\/__portal\/mark-paid\/(\d+)$/.exec(context.path);
      if (paid) {
        await fixture.markPaid(Number(paid[1]));
        return { body: '{}', type: 'json' };
      }
      if (context.path === '/__portal/new-customer') {
        const fields = Object.fromEntries(new URLSearchParams(context.querystring));
        return { body: JSON.stringify(await fixture.newCustomer(fields)), type: 'json' };
      }
      const client = /^\/__portal\/client\/(\d+)$/.exec(context.path);
      if (client) return { body: JSON.stringify(await fixture.client(Number(client[1]))), type: 'json' };
      if (context.path === '/__portal/clients') {
        return { body: JSON.stringify(await fixture.clientsByEmail(new URLSearchParams(context.querystring).get('email') ?? '')), type: 'json' };
      }
      return undefined;
    },
  };
}

/**
 * The buy button's service and BFF; `/__shop/state?email=` tells what the service recorded for a buyer,
 * `/__shop/vies?country=FR&up=0` makes VIES's register of a member state unavailable (`up=1` restores it).
 * `/__portal/hold…` and `/__shop/hold…` drive the holding proxies in front of the two BFFs
 * (test/elements/support/holding-proxy.ts).
 */
function shopFixturePlugin() {
  let fixture;
  return {
    name: 'shop-fixture',
    async serverStart({ config }) {
      const { startShopFixture } = await tsImport('./test/elements/support/shop-fixture.ts', import.meta.url);
      const origins = [`http://${config.hostname}:${config.port}`, `http://localhost:${config.port}`, `http://127.0.0.1:${config.port}`];
      fixture = await startShopFixture({ pageOrigins: [...new Set(origins)] });
    },
    async serverStop() {
      await fixture?.stop();
    },
    async serve(context) {
      if (context.path === '/__shop/info') return { body: JSON.stringify(fixture.info), type: 'json' };
      const hold = /^\/__shop\/(hold|held\/.+)$/.exec(context.path);
      if (hold) return { body: JSON.stringify((await fixture.holds(hold[1], context.query)) ?? null), type: 'json' };
      if (context.path === '/__shop/vies') {
        fixture.vies(context.query.country, context.query.up === '1');
        return { body: '{}', type: 'json' };
      }
      if (context.path === '/__shop/state') return { body: JSON.stringify(await fixture.state(context.query.email)), type: 'json' };
      if (context.path === '/__shop/customer') {
        return { body: JSON.stringify(await fixture.customer(Object.fromEntries(new URLSearchParams(context.querystring)))), type: 'json' };
      }
      return undefined;
    },
  };
}

/**
 * The real answers the Storybook BFF stand-in is checked against (test/elements/bff-stand-in.test.ts).
 * Started on the first request for `/__stand-in/info`, so runs of other test files never pay for it.
 */
function standInFixturePlugin() {
  let fixture;
  let origins = [];
  return {
    name: 'stand-in-fixture',
    serverStart({ config }) {
      origins = [...new Set([`http://${config.hostname}:${config.port}`, `http://localhost:${config.port}`, `http://127.0.0.1:${config.port}`])];
    },
    async serverStop() {
      await (await fixture)?.stop();
    },
    async serve(context) {
      if (context.path !== '/__stand-in/info') return undefined;
      fixture ??= tsImport('./test/elements/support/stand-in-fixture.ts', import.meta.url).then(({ startStandInFixture }) =>
        startStandInFixture({ pageOrigins: origins }),
      );
      return { body: JSON.stringify((await fixture).info), type: 'json' };
    },
  };
}

export default {
  files: ['test/elements/**/*.test.ts'],
  nodeResolve: true,
  hostname: '127.0.0.1',
  rootDir: '.',
  concurrency: 1,
  browserStartTimeout: 60_000,
  testsStartTimeout: 120_000,
  testsFinishTimeout: 300_000,
  testFramework: { config: { timeout: 20_000 } },
  plugins: [esbuildPlugin({ ts: true, tsconfig: 'tsconfig.json', target: 'es2022' }), portalFixturePlugin(), shopFixturePlugin(), standInFixturePlugin()],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: chromePath,
        args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage'],
      },
    }),
  ],
};
