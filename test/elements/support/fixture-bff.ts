import { startBff, type RunningBff, type StartBffOptions } from '../../../src/bff/node.js';
import type { TestService } from '../../helpers/service.js';

/**
 * A real BFF in front of a test service, as the browser suites use it: it allows the test pages'
 * origins, logs nothing, and has no rate limits, because a suite makes a few hundred quick requests
 * from one browser (production limits have their own tests). `extra` sets up the rest.
 */
export function startFixtureBff(
  service: TestService,
  pageOrigins: string[],
  portalSecret: string,
  extra: Partial<StartBffOptions> = {},
): Promise<RunningBff> {
  return startBff({
    serviceUrl: service.url,
    apiToken: service.apiToken,
    portalSecret,
    allowedOrigins: pageOrigins,
    logger: false,
    rateLimit: false,
    ...extra,
  });
}
