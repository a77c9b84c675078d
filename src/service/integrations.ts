import type { Hono } from 'hono';
import type { ServiceEnv } from './http.js';

/** Integration operations of spec §4.8 on `{app_url}`: users, login, accounts. */
export function mountIntegrations(app: Hono<ServiceEnv>): void {
  void app;
}
