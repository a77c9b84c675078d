import type { Hono } from 'hono';
import type { ServiceEnv } from '../http.js';

/** `PUT /departments/<id>.json` with a multipart `department[logo]` (spec §4.9). */
export function mountDepartmentLogo(app: Hono<ServiceEnv>): void {
  void app;
}
