import type { Hono } from 'hono';
import { databaseAnswers } from './data/readiness.js';
import type { Database } from './db.js';
import type { ServiceEnv } from './http.js';

export interface HealthOptions {
  db: Database;
  /** True once the process is shutting down: readiness fails so the load balancer stops sending work. */
  draining?: () => boolean;
}

const READY_TIMEOUT_MS = 2_000;

/**
 * `/healthz` answers while the process runs (liveness); `/readyz` only while it can serve: the
 * database answers and no shutdown has begun (readiness). Neither needs a token or touches data.
 */
export function mountHealth(app: Hono<ServiceEnv>, options: HealthOptions): void {
  app.get('/healthz', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'ok' });
  });
  app.get('/readyz', async (c) => {
    c.header('Cache-Control', 'no-store');
    if (options.draining?.()) return c.json({ code: 'error', message: 'The service is shutting down.' }, 503);
    try {
      await withTimeout(databaseAnswers(options.db), READY_TIMEOUT_MS);
      return c.json({ status: 'ready', database: options.db.kind });
    } catch {
      return c.json({ code: 'error', message: 'The database does not answer.' }, 503);
    }
  });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
