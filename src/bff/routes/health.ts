import { Hono } from 'hono';
import type { Env } from '../context.js';

/** `GET /health`: answers while the BFF runs; it asks nothing of the service. */
export function healthRoutes(): Hono<Env> {
  return new Hono<Env>().get('/health', (c) => c.json({ status: 'ok' }));
}
