import type { PaymentProviderName } from '../../api/schemas/payment-settings.js';
import type { Sql } from '../db.js';
import { openSecret, sealSecret } from '../secrets/keyring.js';
import { mapPaymentSecrets } from '../secrets/stored.js';

/**
 * Each account's payment provider and its keys, kept in the account's record (`accounts.data.payments`).
 * Secrets leave this module only towards the provider's API: `GET /account/payments` says whether
 * each is set, never what it is.
 */
export interface StoredPaymentSettings {
  provider?: PaymentProviderName | undefined;
  stripe?: { secret_key?: string | undefined; webhook_secret?: string | undefined } | undefined;
  przelewy24?:
    | { merchant_id?: number | undefined; pos_id?: number | undefined; crc?: string | undefined; api_key?: string | undefined; sandbox?: boolean | undefined }
    | undefined;
}

export type StripeKeys = { secret_key: string; webhook_secret: string };
export type Przelewy24Keys = { merchant_id: number; pos_id: number; crc: string; api_key: string; sandbox: boolean };

export async function readPaymentSettings(sql: Sql, accountId: number): Promise<StoredPaymentSettings> {
  const rows = await sql.query<{ payments: StoredPaymentSettings | null }>(`select data->'payments' as payments from accounts where id = $1`, [accountId]);
  return mapPaymentSecrets(rows[0]?.payments ?? {}, openSecret);
}

/** The account's payment settings, its record locked until the caller's transaction ends (to change them). */
export async function lockPaymentSettings(tx: Sql, accountId: number): Promise<StoredPaymentSettings> {
  const rows = await tx.query<{ payments: StoredPaymentSettings | null }>(`select data->'payments' as payments from accounts where id = $1 for update`, [accountId]);
  return mapPaymentSecrets(rows[0]?.payments ?? {}, openSecret);
}

/** Replaces the account's payment settings, its secrets sealed. */
export async function writePaymentSettings(tx: Sql, accountId: number, settings: StoredPaymentSettings): Promise<void> {
  await tx.query(`update accounts set data = jsonb_set(coalesce(data, '{}'::jsonb), '{payments}', $2::jsonb) where id = $1`, [
    accountId,
    JSON.stringify(mapPaymentSecrets(settings, sealSecret)),
  ]);
}

/** The account's Stripe keys when both are set. */
export function stripeKeysOf(settings: StoredPaymentSettings): StripeKeys | undefined {
  const { secret_key, webhook_secret } = settings.stripe ?? {};
  return secret_key && webhook_secret ? { secret_key, webhook_secret } : undefined;
}

export function przelewy24KeysOf(settings: StoredPaymentSettings): Przelewy24Keys | undefined {
  const { merchant_id, pos_id, crc, api_key, sandbox } = settings.przelewy24 ?? {};
  return merchant_id && pos_id && crc && api_key ? { merchant_id, pos_id, crc, api_key, sandbox: sandbox ?? false } : undefined;
}

export const isStripeTestKey = (key: string) => /^(sk|rk)_test_/.test(key);

/**
 * The field that makes the chosen provider move real money (a Stripe key that is not a test key,
 * Przelewy24 outside its sandbox), or `undefined` when it moves none.
 */
export function realMoneyField(settings: StoredPaymentSettings): 'stripe.secret_key' | 'przelewy24.sandbox' | undefined {
  if (settings.provider === 'stripe' && settings.stripe?.secret_key && !isStripeTestKey(settings.stripe.secret_key)) return 'stripe.secret_key';
  if (settings.provider === 'przelewy24' && settings.przelewy24 && !settings.przelewy24.sandbox) return 'przelewy24.sandbox';
  return undefined;
}

/** Why `field` cannot move real money beside the local KSeF double, in the words of a 422. */
export const REAL_MONEY_BESIDE_LOCAL_KSEF = {
  'stripe.secret_key': 'is a live key: an account whose invoices go to the local KSeF (a test double) cannot take real payments; use a test key or another KSeF environment',
  'przelewy24.sandbox': 'must be true: an account whose invoices go to the local KSeF (a test double) cannot take real payments; use the sandbox or another KSeF environment',
} as const;
