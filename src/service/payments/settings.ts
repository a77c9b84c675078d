import type { Hono } from 'hono';
import { type PaymentProviderName, type PaymentSettings, paymentSettingsInput } from '../../api/schemas/payment-settings.js';
import { ksefEnvironmentOf } from '../data/ksef-settings.js';
import {
  isStripeTestKey,
  lockPaymentSettings,
  przelewy24KeysOf,
  readPaymentSettings,
  REAL_MONEY_BESIDE_LOCAL_KSEF,
  realMoneyField,
  type StoredPaymentSettings,
  stripeKeysOf,
  writePaymentSettings,
} from '../data/payment-settings.js';
import { invalid, Problems } from '../domain-errors.js';
import { type Account, respond, type ServiceContext, type ServiceEnv, validate, wrapped } from '../http.js';
import { type PaymentProvider, testPaymentProvider } from './provider.js';
import { przelewy24Provider } from './przelewy24.js';
import { stripeProvider } from './stripe.js';

/** Where each provider reports to this service about `account`'s payments. */
export function notificationUrls(publicUrl: string, account: Pick<Account, 'prefix'>) {
  const prefix = encodeURIComponent(account.prefix);
  return {
    stripe: `${publicUrl}/payments/stripe/${prefix}/webhook`,
    przelewy24: `${publicUrl}/payments/przelewy24/${prefix}/notify`,
  };
}

/**
 * The provider that takes `account`'s payments: the one it chose, else the service's default (the
 * test provider under `--test-payments`, else none). `null`: online payment is off for the account.
 */
export function providerFromSettings(
  settings: StoredPaymentSettings,
  fallback: PaymentProvider | null,
  urls: { publicUrl: string; account: Pick<Account, 'prefix'>; test?: PaymentProvider | undefined },
): PaymentProvider | null {
  switch (settings.provider) {
    case undefined:
      return fallback;
    case 'none':
      return null;
    case 'test':
      return urls.test ?? testPaymentProvider;
    case 'stripe': {
      const keys = stripeKeysOf(settings);
      return keys ? stripeProvider(keys) : null;
    }
    case 'przelewy24': {
      const keys = przelewy24KeysOf(settings);
      return keys ? przelewy24Provider(keys, { notifyUrl: notificationUrls(urls.publicUrl, urls.account).przelewy24 }) : null;
    }
  }
}

export async function paymentProviderOf(c: ServiceContext, account: Account): Promise<PaymentProvider | null> {
  const config = c.get('config');
  return providerFromSettings(await readPaymentSettings(c.get('db'), account.id), config.paymentProvider, { publicUrl: config.publicUrl, account, test: config.testPaymentProvider });
}

function presentSettings(settings: StoredPaymentSettings, provider: PaymentProvider | null, publicUrl: string, account: Account): PaymentSettings {
  const stripeKey = settings.stripe?.secret_key;
  const p24 = settings.przelewy24 ?? {};
  const urls = notificationUrls(publicUrl, account);
  return {
    provider: settings.provider ?? ((provider?.id ?? 'none') as PaymentProviderName),
    default: settings.provider === undefined,
    test_mode: provider?.testMode === true,
    stripe: {
      secret_key_set: Boolean(stripeKey),
      webhook_secret_set: Boolean(settings.stripe?.webhook_secret),
      key_mode: stripeKey ? (isStripeTestKey(stripeKey) ? 'test' : 'live') : null,
      webhook_url: urls.stripe,
    },
    przelewy24: {
      merchant_id: p24.merchant_id ?? null,
      pos_id: p24.pos_id ?? null,
      crc_set: Boolean(p24.crc),
      api_key_set: Boolean(p24.api_key),
      sandbox: p24.sandbox ?? false,
      notify_url: urls.przelewy24,
    },
  };
}

/** Given fields replace stored ones, `null` removes one, a field left out stays as it was. */
function mergeSection<T extends object>(stored: T | undefined, given: Record<string, unknown> | null | undefined): T | undefined {
  if (given === null) return undefined;
  if (given === undefined) return stored;
  const next: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (value === null || value === '') delete next[key];
    else next[key] = value;
  }
  return next as T;
}

/** A provider can only be chosen with every key it needs. */
function checkComplete(settings: StoredPaymentSettings): void {
  const missing = new Problems();
  const need = (section: 'stripe' | 'przelewy24', fields: string[]) => {
    const given = (settings[section] ?? {}) as Record<string, unknown>;
    for (const field of fields) if (given[field] == null) missing.add(`${section}.${field}`, "can't be blank");
  };
  if (settings.provider === 'stripe') need('stripe', ['secret_key', 'webhook_secret']);
  if (settings.provider === 'przelewy24') need('przelewy24', ['merchant_id', 'pos_id', 'crc', 'api_key']);
  missing.throwIfAny();
}

/**
 * `GET /account/payments` and `PUT /account/payments`: the account's payment provider and keys. Only
 * the account's own api_token reaches them.
 */
export function mountPaymentSettings(app: Hono<ServiceEnv>): void {
  async function answer(c: ServiceContext, settings: StoredPaymentSettings) {
    const account = c.get('account');
    const { publicUrl, paymentProvider, testPaymentProvider: test } = c.get('config');
    const provider = providerFromSettings(settings, paymentProvider, { publicUrl, account, test });
    c.header('cache-control', 'no-store');
    return respond(c, { payments: presentSettings(settings, provider, publicUrl, account) }, { root: 'payments' });
  }

  app.get('/', async (c) => answer(c, await readPaymentSettings(c.get('db'), c.get('account').id)));

  app.put('/', async (c) => {
    const input = validate(paymentSettingsInput, wrapped(c, 'payments'));
    const account = c.get('account');
    const settings = await c.get('db').transaction(async (tx) => {
      const stored = await lockPaymentSettings(tx, account.id);
      const next: StoredPaymentSettings = {
        provider: input.provider === undefined ? stored.provider : (input.provider ?? undefined),
        stripe: mergeSection(stored.stripe, input.stripe),
        przelewy24: mergeSection(stored.przelewy24, input.przelewy24),
      };
      checkComplete(next);
      // The local KSeF double never runs beside real money.
      const real = realMoneyField(next);
      if (real && (await ksefEnvironmentOf(tx, account.id)) === 'local') throw invalid({ [real]: [REAL_MONEY_BESIDE_LOCAL_KSEF[real]] });
      await writePaymentSettings(tx, account.id, next);
      return next;
    });
    return answer(c, settings);
  });
}
