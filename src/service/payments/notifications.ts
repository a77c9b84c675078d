import type { Hono } from 'hono';
import type { ServiceEnv } from '../http.js';
import { mountPrzelewy24Notify } from './przelewy24.js';
import { mountPaymentSettings } from './settings.js';
import { mountStripeWebhook } from './stripe.js';

/**
 * Each account's payment settings (`/account/payments`, its api_token only) and the routes payment
 * providers report to (`/payments/<provider>/<prefix>/…`, public: each checks its provider's signature).
 */
export function mountPaymentNotifications(app: Hono<ServiceEnv>, options: { clock?: (() => Date) | undefined } = {}): void {
  mountPaymentSettings(app);
  mountStripeWebhook(app, options);
  mountPrzelewy24Notify(app);
}
