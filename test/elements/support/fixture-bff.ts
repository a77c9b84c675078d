import { startBff, type RunningBff, type StartBffOptions } from '../../../src/bff/node.js';
import type { TestService } from '../../helpers/service.js';
import { type RegistryDoubles, startRegistryDoubles } from '../../../src/service/registries/doubles/index.js';

/**
 * A real BFF in front of a test service, as the browser suites use it: it allows the test pages'
 * origins, logs nothing, and has no rate limits, because a suite makes a few hundred quick requests
 * from one browser (production limits have their own tests). It asks the registers' stand-ins (the
 * demo's companies, and the German company the suites buy as), which it answers as `registries`.
 * `extra` sets up the rest.
 */
export async function startFixtureBff(
  service: TestService,
  pageOrigins: string[],
  portalSecret: string,
  extra: Partial<StartBffOptions> = {},
): Promise<RunningBff & { registries: RegistryDoubles }> {
  const registries = await startRegistryDoubles();
  registries.vies.register('DE', '811907980', { name: 'Acme GmbH', address: 'Hauptstraße 1\n10115 Berlin' });
  try {
    const bff = await startBff({
      serviceUrl: service.url,
      apiToken: service.apiToken,
      portalSecret,
      allowedOrigins: pageOrigins,
      logger: false,
      rateLimit: false,
      registries: { nbpApiUrl: registries.nbpApiUrl, viesApiUrl: registries.viesApiUrl, mfWhitelistUrl: registries.mfWhitelistUrl },
      ...extra,
    });
    return { ...bff, registries, close: (options) => bff.close(options).finally(() => registries.close()) };
  } catch (error) {
    await registries.close();
    throw error;
  }
}
