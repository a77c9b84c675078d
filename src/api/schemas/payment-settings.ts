import * as z from 'zod';
import { booleanInput } from './common.js';

/** Who takes an account's checkout payments. `none` turns online payment off for the account. */
export const PAYMENT_PROVIDERS = ['test', 'stripe', 'przelewy24', 'none'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

const secret = (pattern: RegExp, what: string) =>
  z
    .string({ message: 'must be text' })
    .trim()
    .max(500, 'is too long (maximum is 500 characters)')
    .regex(pattern, `is not ${what}`)
    .nullish();

const positiveId = z.preprocess(
  (value) => (typeof value === 'string' && /^\d{1,10}$/.test(value.trim()) ? Number(value) : value),
  z.number({ message: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(2_147_483_647, 'is too large'),
);

/**
 * Body of `PUT /account/payments` (inside the `payments` wrapper). Secrets are write-only: a secret
 * left out keeps the stored one, `null` removes it.
 */
export const paymentSettingsInput = z.strictObject(
  {
    /** Unset (`null`) falls back to the service's default: the test provider when it runs with test payments, else none. */
    provider: z.enum(PAYMENT_PROVIDERS, { message: `must be one of ${PAYMENT_PROVIDERS.join(', ')}` }).nullish(),
    stripe: z
      .strictObject(
        {
          /** A secret or restricted key: `sk_test_…`, `sk_live_…`, `rk_test_…`, `rk_live_…`. */
          secret_key: secret(/^(sk|rk)_(test|live)_[\x21-\x7e]+$/, 'a Stripe secret key (sk_test_…, sk_live_…)'),
          /** The signing secret of the webhook endpoint (or of `stripe listen`): `whsec_…`. */
          webhook_secret: secret(/^whsec_[\x21-\x7e]+$/, 'a Stripe webhook signing secret (whsec_…)'),
        },
        { message: 'must be an object' },
      )
      .nullish(),
    przelewy24: z
      .strictObject(
        {
          merchant_id: positiveId.nullish(),
          pos_id: positiveId.nullish(),
          /** The CRC key of the panel: signs registrations, notifications and verifications. */
          crc: secret(/^[\x21-\x7e]+$/, 'a Przelewy24 CRC key'),
          /** The REST API key (“klucz do raportów”): the password of the API's Basic auth. */
          api_key: secret(/^[\x21-\x7e]+$/, 'a Przelewy24 API key'),
          /** Registers transactions on sandbox.przelewy24.pl: no money moves. */
          sandbox: booleanInput.nullish(),
        },
        { message: 'must be an object' },
      )
      .nullish(),
  },
  { message: 'must be an object' },
);
export type PaymentSettingsInput = z.input<typeof paymentSettingsInput>;

/** What `GET /account/payments` answers: the choice and public settings; of each secret only whether it is set. */
export const paymentSettings = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  /** True when the account chose nothing and the service's default applies. */
  default: z.boolean(),
  /** True while the account's provider moves no real money (the test provider, Stripe test keys, Przelewy24's sandbox). */
  test_mode: z.boolean(),
  stripe: z.object({
    secret_key_set: z.boolean(),
    webhook_secret_set: z.boolean(),
    /** `live` or `test`, read from the key's prefix; null without a key. */
    key_mode: z.enum(['live', 'test']).nullable(),
    /** Where Stripe sends this account's events: the endpoint to add in Stripe's dashboard. */
    webhook_url: z.string(),
  }),
  przelewy24: z.object({
    merchant_id: z.number().nullable(),
    pos_id: z.number().nullable(),
    crc_set: z.boolean(),
    api_key_set: z.boolean(),
    sandbox: z.boolean(),
    /** Where Przelewy24 sends this account's notifications (`urlStatus`). */
    notify_url: z.string(),
  }),
});
export type PaymentSettings = z.infer<typeof paymentSettings>;

/** The answer of `GET` and `PUT /account/payments`. */
export const paymentSettingsResult = z.object({ payments: paymentSettings });
