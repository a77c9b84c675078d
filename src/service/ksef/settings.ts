import type * as z from 'zod';
import type { KsefAutoSendMode, ksefSettingsInput } from '../../api/schemas/ksef.js';
import type { Sql } from '../db.js';
import { saveKsefSettings, startAutoSendAfterNewestInvoice, storedKsefSettings } from '../data/ksef-settings.js';
import type { KsefEnvironment } from './gateway.js';
import { openOptional, sealOptional } from '../secrets/keyring.js';

/**
 * An account's KSeF settings (`GET/PUT /account/ksef.json`, our extension of the hosted service,
 * whose users set the same things in its web panel): the environment, the KSeF token, automatic
 * sending, whether invoices KSeF would refuse are refused on save, and the Offline certificate that
 * signs KOD II. The token and the certificate's private key are write-only.
 */

export type AutoSendMode = KsefAutoSendMode;

export interface KsefSettings {
  readonly environment: KsefEnvironment | 'off';
  readonly token: string | null;
  readonly auto_send_mode: AutoSendMode | null;
  readonly validate_invoices_for_gov: boolean;
  /** The Offline certificate (PEM) and its private key (PEM), both or neither. Kept as the token is. */
  readonly offline_certificate: string | null;
  readonly offline_private_key: string | null;
}

export const KSEF_OFF: KsefSettings = {
  environment: 'off',
  token: null,
  auto_send_mode: null,
  validate_invoices_for_gov: true,
  offline_certificate: null,
  offline_private_key: null,
};

export async function readKsefSettings(sql: Sql, accountId: number): Promise<KsefSettings> {
  const row = await storedKsefSettings<KsefSettings>(sql, accountId);
  return row ? { ...row, token: openOptional(row.token), offline_private_key: openOptional(row.offline_private_key) } : KSEF_OFF;
}

/** Changes what `change` names and keeps the rest. Used by the route and to provision the demo account. */
export async function writeKsefSettings(sql: Sql, accountId: number, change: z.output<typeof ksefSettingsInput>): Promise<KsefSettings> {
  const current = await readKsefSettings(sql, accountId);
  const next: KsefSettings = {
    environment: change.environment ?? current.environment,
    token: change.token === undefined ? current.token : change.token?.trim() || null,
    auto_send_mode: change.auto_send_mode === undefined ? current.auto_send_mode : change.auto_send_mode,
    validate_invoices_for_gov: change.validate_invoices_for_gov ?? current.validate_invoices_for_gov,
    ...offlineCertificateChange(change, current),
  };
  await saveKsefSettings(sql, accountId, { ...next, token: sealOptional(next.token), offline_private_key: sealOptional(next.offline_private_key) });
  // Turning automatic sending on sends what is issued from now on, not the invoices of the past.
  if (next.auto_send_mode && next.auto_send_mode !== current.auto_send_mode) await startAutoSendAfterNewestInvoice(sql, accountId);
  return next;
}

/** The certificate and key as a change sets them: both, or neither (null or an empty string removes both). */
function offlineCertificateChange(change: z.output<typeof ksefSettingsInput>, current: KsefSettings): Pick<KsefSettings, 'offline_certificate' | 'offline_private_key'> {
  const certificate = change.offline_certificate;
  const key = change.offline_private_key;
  if (certificate === undefined && key === undefined) return { offline_certificate: current.offline_certificate, offline_private_key: current.offline_private_key };
  if (!certificate?.trim() || !key?.trim()) return { offline_certificate: null, offline_private_key: null };
  return { offline_certificate: certificate.trim(), offline_private_key: key.trim() };
}

/** KSeF is on for the account: an environment is chosen and a token given. */
export const isConnected = (settings: KsefSettings): settings is KsefSettings & { environment: KsefEnvironment; token: string } =>
  settings.environment !== 'off' && settings.token !== null;
