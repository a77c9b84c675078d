import type { Sql } from '../sql.js';

/**
 * Each account's KSeF settings (`ksef_settings`), as stored: the token and the Offline certificate's
 * private key sealed, and the high-water mark of automatic sending (`auto_send_after_id`, the last
 * invoice it has looked at).
 */

/** The settings' columns as stored; `Settings` is the caller's typed view of them. */
export async function storedKsefSettings<Settings>(sql: Sql, accountId: number): Promise<Settings | undefined> {
  const rows = await sql.query<Settings>(
    `select environment, token, auto_send_mode, validate_invoices_for_gov, offline_certificate, offline_private_key from ksef_settings where account_id = $1`,
    [accountId],
  );
  return rows[0];
}

/** The settings to store, secrets already sealed. */
export interface KsefSettingsRecord {
  environment: string;
  token: string | null;
  auto_send_mode: string | null;
  validate_invoices_for_gov: boolean;
  offline_certificate: string | null;
  offline_private_key: string | null;
}

/** Writes the account's settings, whether or not it had any. */
export async function saveKsefSettings(sql: Sql, accountId: number, settings: KsefSettingsRecord): Promise<void> {
  await sql.query(
    `insert into ksef_settings (account_id, environment, token, auto_send_mode, validate_invoices_for_gov, offline_certificate, offline_private_key, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, now())
     on conflict (account_id) do update set environment = $2, token = $3, auto_send_mode = $4, validate_invoices_for_gov = $5,
       offline_certificate = $6, offline_private_key = $7, updated_at = now()`,
    [
      accountId,
      settings.environment,
      settings.token,
      settings.auto_send_mode,
      settings.validate_invoices_for_gov,
      settings.offline_certificate,
      settings.offline_private_key,
    ],
  );
}

/** Automatic sending starts after the account's newest invoice: those of the past are not sent. */
export async function startAutoSendAfterNewestInvoice(sql: Sql, accountId: number): Promise<void> {
  await sql.query(
    `update ksef_settings set auto_send_after_id = (select coalesce(max(id), 0) from invoices where account_id = $1) where account_id = $1`,
    [accountId],
  );
}

/** The accounts that send automatically (connected, with `auto_send_mode`), each with its high-water mark. */
export function autoSendingAccounts(sql: Sql): Promise<{ account_id: number; after: number }[]> {
  return sql.query<{ account_id: number; after: number }>(
    `select account_id, auto_send_after_id as after from ksef_settings
        where environment <> 'off' and token is not null and auto_send_mode is not null`,
  );
}

/** Automatic sending has looked at the account's invoices up to `invoiceId` (the mark never goes back). */
export async function raiseAutoSendMark(sql: Sql, accountId: number, invoiceId: number): Promise<void> {
  await sql.query(`update ksef_settings set auto_send_after_id = greatest(auto_send_after_id, $2) where account_id = $1`, [accountId, invoiceId]);
}

/** The account's chosen KSeF environment, when it has settings. */
export async function ksefEnvironmentOf(sql: Sql, accountId: number): Promise<string | undefined> {
  const rows = await sql.query<{ environment: string }>(`select environment from ksef_settings where account_id = $1`, [accountId]);
  return rows[0]?.environment;
}
