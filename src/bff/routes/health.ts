import { Hono, type Env } from 'hono';
import type { BffStores } from '../stores/types.js';

const READY_TIMEOUT_MS = 2_000;

/**
 * `/healthz` answers while the process runs; `/readyz` only while its shared stores (Redis,
 * PostgreSQL) answer and no shutdown has begun, so a load balancer sends work only where it can be done.
 */
export function healthRoutes<E extends Env>(options: { stores: Pick<BffStores, 'kind' | 'ping'>; draining?: () => boolean }): Hono<E> {
  const routes = new Hono<E>();
  routes.get('/healthz', (c) => c.json({ status: 'ok' }));
  routes.get('/readyz', async (c) => {
    if (options.draining?.()) return c.json({ error: { code: 'service_unavailable', message: 'The BFF is shutting down.' } }, 503);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        options.stores.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), READY_TIMEOUT_MS);
        }),
      ]);
      return c.json({ status: 'ready', stores: options.stores.kind });
    } catch {
      return c.json({ error: { code: 'service_unavailable', message: 'The shared store does not answer.' } }, 503);
    } finally {
      clearTimeout(timer);
    }
  });
  return routes;
}
