import type { Hono } from 'hono';
import type { ServiceEnv } from '../http.js';

/** Public pages that need no api_token: invoice view, PDF and payment links, the outbox. */
export function mountPublicPages(app: Hono<ServiceEnv>): void {
  void app;
}
