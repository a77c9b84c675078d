import type { Hono } from 'hono';
import Stripe from 'stripe';
import type { ConnectionTest } from '../../api/schemas/seller.js';
import { isStripeTestKey, przelewy24KeysOf, readPaymentSettings, stripeKeysOf } from '../data/payment-settings.js';
import { defaultDepartment } from '../accounts.js';
import { invalidField, respond, type ServiceEnv } from '../http.js';
import { isConnected, readKsefSettings } from '../ksef/settings.js';
import { testKsefConnection } from './ksef-connection.js';
import { callApi as przelewy24Api } from '../payments/przelewy24.js';
import { stripeClient } from '../payments/stripe.js';

/**
 * `POST /account/connection_tests/payments`: asks the account's payment provider whether the stored
 * keys work, the way each provider documents it (Stripe: the account's balance; Przelewy24:
 * `testAccess`). `POST /account/connection_tests/ksef`: one authentication with the account's KSeF
 * token in its environment. A refusal or an unreachable party is a 200 with `ok: false` and what it
 * said: the test ran, and its answer is the result.
 */
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function testStripe(secretKey: string): Promise<ConnectionTest> {
  const test_mode = isStripeTestKey(secretKey);
  try {
    const balance = await stripeClient(secretKey).balance.retrieve();
    const mode = balance.livemode ? 'live' : 'test';
    return { ok: true, target: 'stripe', test_mode, message: `Stripe accepted the key and read the account's balance (${mode} mode).` };
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && error.statusCode !== undefined) {
      return { ok: false, target: 'stripe', test_mode, message: `Stripe refused the key (${error.statusCode}): ${error.message}` };
    }
    return { ok: false, target: 'stripe', test_mode, message: `Stripe could not be reached: ${reason(error)}` };
  }
}

async function testPrzelewy24(keys: NonNullable<ReturnType<typeof przelewy24KeysOf>>): Promise<ConnectionTest> {
  const test_mode = keys.sandbox;
  try {
    const answer = await przelewy24Api(keys, 'GET', '/testAccess');
    const body = answer.body as { data?: unknown; error?: unknown } | undefined;
    if (answer.status === 200 && body?.data === true) {
      return { ok: true, target: 'przelewy24', test_mode, message: `Przelewy24 accepted the POS id and API key (${test_mode ? 'sandbox' : 'live'}).` };
    }
    const said = typeof body?.error === 'string' && body.error ? `: ${body.error}` : '';
    return { ok: false, target: 'przelewy24', test_mode, message: `Przelewy24 refused the POS id and API key (${answer.status})${said}` };
  } catch (error) {
    return { ok: false, target: 'przelewy24', test_mode, message: `Przelewy24 could not be reached: ${reason(error)}` };
  }
}

export function mountConnectionTests(app: Hono<ServiceEnv>): void {
  app.post('/payments', async (c) => {
    const settings = await readPaymentSettings(c.get('db'), c.get('account').id);
    const provider = settings.provider ?? c.get('config').paymentProvider?.id ?? 'none';
    let result: ConnectionTest;
    if (provider === 'stripe') {
      const keys = stripeKeysOf(settings);
      if (!keys) throw invalidField('stripe.secret_key', "can't be blank");
      result = await testStripe(keys.secret_key);
    } else if (provider === 'przelewy24') {
      const keys = przelewy24KeysOf(settings);
      if (!keys) throw invalidField('przelewy24.api_key', "can't be blank");
      result = await testPrzelewy24(keys);
    } else if (provider === 'test') {
      result = { ok: true, target: 'test', test_mode: true, message: 'The test provider needs no keys: its Pay and Decline pages record payments, and no money moves.' };
    } else {
      throw invalidField('provider', 'is none: choose a payment provider first');
    }
    c.header('cache-control', 'no-store');
    return respond(c, result, { root: 'connection_test' });
  });

  app.post('/ksef', async (c) => {
    const account = c.get('account');
    const settings = await readKsefSettings(c.get('db'), account.id);
    if (settings.environment === 'off') throw invalidField('environment', 'is off: choose a KSeF environment first');
    if (!isConnected(settings)) throw invalidField('token', "can't be blank");
    const nip = (await defaultDepartment(c.get('db'), account.id))?.data.tax_no?.replace(/\D/g, '') ?? '';
    if (!/^\d{10}$/.test(nip)) throw invalidField('tax_no', 'of the seller must be a NIP of 10 digits');
    const result = await testKsefConnection({ environment: settings.environment, token: settings.token, nip, localOrigin: c.get('config').ksef.localOrigin() });
    c.header('cache-control', 'no-store');
    return respond(c, result, { root: 'connection_test' });
  });
}
