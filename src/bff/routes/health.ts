import { Hono } from 'hono';
import type { Bff, Env } from '../context.js';

const READY_TIMEOUT_MS = 2_000;

/**
 * `GET /health` and `/healthz` answer while the BFF runs and ask nothing of the service. `/readyz`
 * answers only while the shared stores (Redis, PostgreSQL) answer and no shutdown has begun, so a load
 * balancer sends work only where it can be done.
 */
export function healthRoutes(bff: Bff): Hono<Env> {
  const stores = bff.options.stores;
  const draining = bff.options.draining;
  const alive = (c: { json: (body: unknown) => Response }) => c.json({ status: 'ok' });
  return new Hono<Env>()
    .get('/health', alive)
    .get('/healthz', alive)
    .get('/readyz', async (c) => {
      if (draining?.()) return c.json({ error: { code: 'unavailable', message: 'The BFF is shutting down.' } }, 503);
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await Promise.race([
          stores?.ping(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('timed out')), READY_TIMEOUT_MS);
          }),
        ]);
        return c.json({ status: 'ready', stores: stores?.kind ?? 'memory' });
      } catch {
        return c.json({ error: { code: 'unavailable', message: 'The shared store does not answer.' } }, 503);
      } finally {
        clearTimeout(timer);
      }
    });
}
