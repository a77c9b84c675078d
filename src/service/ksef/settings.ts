import type { Hono } from 'hono';
import type * as z from 'zod';
import { type KsefAutoSendMode, ksefSettingsInput } from '../../api/schemas/ksef.js';
import type { Sql } from '../db.js';
import { invalid, respond, type ServiceEnv, validate } from '../http.js';
import type { KsefEnvironment } from './gateway.js';

/**
 * An account's KSeF settings (`GET/PUT /account/ksef.json`, our extension of the hosted service,
 * whose users set the same things in its web panel): the environment, the KSeF token, automatic
 * sending and whether invoices KSeF would refuse are refused on save. The token is write-only.
 */

export type AutoSendMode = KsefAutoSendMode;

export interface KsefSettings {
  readonly environment: KsefEnvironment | 'off';
  readonly token: string | null;
  readonly auto_send_mode: AutoSendMode | null;
  readonly validate_invoices_for_gov: boolean;
}

export const KSEF_OFF: KsefSettings = { environment: 'off', token: null, auto_send_mode: null, validate_invoices_for_gov: true };

export async function readKsefSettings(sql: Sql, accountId: number): Promise<KsefSettings> {
  const rows = await sql.query<KsefSettings>(
    `select environment, token, auto_send_mode, validate_invoices_for_gov from ksef_settings where account_id = $1`,
    [accountId],
  );
  return rows[0] ?? KSEF_OFF;
}

/** Changes what `change` names and keeps the rest. Used by the route and to provision the demo account. */
export async function writeKsefSettings(sql: Sql, accountId: number, change: z.output<typeof ksefSettingsInput>): Promise<KsefSettings> {
  const current = await readKsefSettings(sql, accountId);
  const next: KsefSettings = {
    environment: change.environment ?? current.environment,
    token: change.token === undefined ? current.token : change.token?.trim() || null,
    auto_send_mode: change.auto_send_mode === undefined ? current.auto_send_mode : change.auto_send_mode,
    validate_invoices_for_gov: change.validate_invoices_for_gov ?? current.validate_invoices_for_gov,
  };
  await sql.query(
    `insert into ksef_settings (account_id, environment, token, auto_send_mode, validate_invoices_for_gov, updated_at)
     values ($1, $2, $3, $4, $5, now())
     on conflict (account_id) do update set environment = $2, token = $3, auto_send_mode = $4, validate_invoices_for_gov = $5, updated_at = now()`,
    [accountId, next.environment, next.token, next.auto_send_mode, next.validate_invoices_for_gov],
  );
  // Turning automatic sending on sends what is issued from now on, not the invoices of the past.
  if (next.auto_send_mode && next.auto_send_mode !== current.auto_send_mode) {
    await sql.query(
      `update ksef_settings set auto_send_after_id = (select coalesce(max(id), 0) from invoices where account_id = $1) where account_id = $1`,
      [accountId],
    );
  }
  return next;
}

/** The settings as answered: the token only as whether one is set. */
export function presentKsefSettings(settings: KsefSettings) {
  return {
    ksef: {
      environment: settings.environment,
      token_set: settings.token !== null,
      auto_send_mode: settings.auto_send_mode,
      validate_invoices_for_gov: settings.validate_invoices_for_gov,
    },
  };
}

/** KSeF is on for the account: an environment is chosen and a token given. */
export const isConnected = (settings: KsefSettings): settings is KsefSettings & { environment: KsefEnvironment; token: string } =>
  settings.environment !== 'off' && settings.token !== null;

export function mountKsefSettings(app: Hono<ServiceEnv>, options: { localAvailable: () => boolean }): void {
  app.get('/account/ksef', async (c) => respond(c, presentKsefSettings(await readKsefSettings(c.get('db'), c.get('account').id))));
  app.put('/account/ksef', async (c) => {
    const body = c.get('body');
    const given = body.ksef === undefined ? body : body.ksef;
    const change = validate(ksefSettingsInput, given, 'ksef');
    if (change.environment === 'local' && !options.localAvailable()) {
      throw invalid({ 'ksef.environment': ['local needs the bundled KSeF (start the service with --ksef-local)'] });
    }
    const settings = await c.get('db').transaction((tx) => writeKsefSettings(tx, c.get('account').id, change));
    return respond(c, presentKsefSettings(settings));
  });
}
