import type { Hono } from 'hono';
import type { ServiceEnv } from './http.js';

/**
 * PATCH is accepted wherever PUT is, as Rails routes it (Rails-style clients send PATCH for updates).
 * Called once every route is mounted: each PUT handler, a module's own or one mounted from a
 * sub-app, is registered for PATCH on the same path too, unless it already is.
 */
export function routePatchAsPut(app: Hono<ServiceEnv>): void {
  const forPatch = new Set(app.routes.filter((route) => route.method === 'PATCH').map((route) => route.handler));
  for (const route of [...app.routes]) {
    if (route.method === 'PUT' && !forPatch.has(route.handler)) app.on('PATCH', route.path, route.handler);
  }
}
