import type { Hono } from 'hono';
import type { ServiceEnv } from '../http.js';
import { mountPrzelewy24Notify } from './przelewy24.js';
import { mountStripeWebhook } from './stripe.js';

/**
 * The routes payment providers report to, on the `/payments` group (`/payments/<provider>/<prefix>/…`,
 * public: each checks its provider's signature).
 */
export function mountPaymentNotifications(
  app: Hono<ServiceEnv>,
  options: { clock?: (() => Date) | undefined },
): void {
  mountStripeWebhook(app, options);
  mountPrzelewy24Notify(app, options);
}
