import { issuedOffline } from '../../kernel/ksef.js';
import type { Sql } from '../db.js';
import { advancesOf } from '../data/ksef-invoices.js';
import { ksefJobInFlight, queueKsefJob } from '../data/ksef-jobs.js';
import type { Account } from '../account.js';
import { invalid, Problems } from '../domain-errors.js';
import { findRow, type StoredRow, timestampText, updateRow } from '../store.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { buildFa3, type Fa3Context, fa3InvoiceOf, fa3Problems, type Fa3Reference, isKsefKind } from './fa3/build.js';
import { inferTaxNoKind, sellerNip } from './fa3/parties.js';
import { isTestEnvironment, isValidKsefNumber, type KsefEnvironment, verificationLink } from './gateway.js';
import { isConnected, type KsefSettings, readKsefSettings } from './settings.js';
import { offlineCodeFields } from './offline-certificate.js';
import type { KsefRuntime } from './runtime.js';

/**
 * The hosted service's KSeF API on invoices: the `gov_*` fields, checking an invoice against what
 * KSeF takes when it is saved (`validate_invoices_for_gov`), automatic sending (`auto_send_mode`) and
 * a request to send (`gov_save_and_send`, `send_to_ksef=yes`), which writes the exact document to
 * the durable queue (`ksef_jobs`) that the sender works through.
 */

export type GovState = 'ok' | 'processing' | 'send_error' | 'server_error' | 'not_applicable' | 'not_connected';

/** `gov_status`: outside production every state is `demo_…`, as the hosted service's DEMO mode answers. */
export function govStatus(state: GovState, environment: KsefEnvironment | 'off'): string {
  return environment !== 'off' && isTestEnvironment(environment) ? `demo_${state}` : state;
}

type Stored = InvoiceData & Record<string, unknown>;

/** A date at midnight in Poland, as the hosted service answers `gov_sell_date` (`2026-02-01T00:00:00.000+01:00`). */
function polishMidnight(date: string): string {
  const offset = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Warsaw', timeZoneName: 'longOffset' })
    .formatToParts(new Date(`${date}T12:00:00Z`))
    .find((part) => part.type === 'timeZoneName')?.value.replace('GMT', '') || '+00:00';
  return `${date}T00:00:00.000${offset}`;
}

type CorrectedReference = Fa3Reference & { id: number; data: Stored };

async function reference(tx: Sql, accountId: number, id: unknown): Promise<CorrectedReference | null> {
  if (typeof id !== 'number') return null;
  const row = await findRow<Stored>(tx, 'invoices', accountId, id);
  if (!row) return null;
  const d = row.data;
  return {
    id: row.id,
    data: d,
    number: d.number,
    issue_date: d.issue_date,
    kind: d.kind,
    ksefNumber: (d.gov_id as string | null) ?? null,
    price_gross: d.price_gross,
    currency: d.currency,
    exchange_currency_rate: (d.exchange_currency_rate as string | null | undefined) ?? null,
    pending: typeof d.gov_status === 'string' && d.gov_status.endsWith('processing') && !d.gov_id,
  };
}

/**
 * The fields a correction keeps from the invoice it corrects while KSeF is on (hosted guide,
 * "Korekty faktur"): KSeF links the two by their parties, which a correction does not change.
 */
export const CORRECTION_KEPT_FIELDS = [
  'department_id', 'seller_tax_no', 'seller_email', 'seller_phone', 'seller_fax', 'seller_www', 'seller_tax_no_kind', 'seller_bdo_no',
  'buyer_company', 'buyer_tax_no', 'buyer_note', 'buyer_email', 'buyer_phone', 'buyer_mobile_phone', 'buyer_tax_no_kind',
  'use_invoice_issuer', 'invoice_issuer', 'use_delivery_address', 'delivery_address',
] as const;

/** A stored value as compared: blank, null and absent are the same; `true` and `"1"` too. */
function comparable(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value).trim();
}

/**
 * What a correction may not say: fields changed from the corrected invoice, a KSeF number that is
 * not its own. The kept fields it leaves out are taken from the corrected invoice.
 */
export function correctionProblems(data: Stored, corrected: CorrectedReference | null): Record<string, string[]> {
  const problems = new Problems();
  const given = typeof data.gov_corrected_invoice_number === 'string' ? data.gov_corrected_invoice_number.trim() : '';
  if (given && !isValidKsefNumber(given)) problems.add('gov_corrected_invoice_number', 'is not a KSeF number (NIP-YYYYMMDD-XXXXXXXXXXXX-CC, with its checksum)');
  else if (given && corrected?.ksefNumber && given !== corrected.ksefNumber) {
    problems.add('gov_corrected_invoice_number', `must be the corrected invoice's KSeF number, ${corrected.ksefNumber}`);
  }
  if (!corrected) return problems.fields;
  for (const field of CORRECTION_KEPT_FIELDS) {
    const before = (corrected.data as Record<string, unknown>)[field];
    const fields = data as Record<string, unknown>;
    // What the correction does not say it keeps from the corrected invoice.
    if (fields[field] === undefined && before !== undefined) fields[field] = before;
    const after = fields[field];
    // `buyer_company` absent on an older record means a company, as the hosted service reads it.
    if (field === 'buyer_company' && (before === undefined || after === undefined)) continue;
    if (comparable(before) !== comparable(after)) problems.add(field, "can't differ from the corrected invoice's");
  }
  return problems.fields;
}

/** The invoices an FA(3) document names: a correction's corrected invoice, an advance's order, a final invoice's advances. */
export async function fa3ContextOf(tx: Sql, accountId: number, data: Stored): Promise<Omit<Fa3Context, 'createdAt'>> {
  if (data.kind === 'correction') {
    const corrected = await reference(tx, accountId, data.from_invoice_id ?? data.invoice_id);
    const given = typeof data.gov_corrected_invoice_number === 'string' && data.gov_corrected_invoice_number.trim() ? data.gov_corrected_invoice_number.trim() : null;
    return { corrected: corrected ? { ...corrected, ksefNumber: corrected.ksefNumber ?? given } : null };
  }
  if (data.kind === 'advance' && typeof data.invoice_id === 'number') {
    const order = await findRow<Stored>(tx, 'invoices', accountId, data.invoice_id);
    return { order: order && order.data.kind !== 'advance' ? fa3InvoiceOf(order.data) : null };
  }
  if (data.kind === 'final' && typeof data.invoice_id === 'number') {
    const rows = await advancesOf<Stored>(tx, accountId, data.invoice_id);
    return { advances: rows.map((row) => ({ number: row.data.number, issue_date: row.data.issue_date, ksefNumber: (row.data.gov_id as string | null) ?? null })) };
  }
  return {};
}

/** `gov_error_messages`: one line per problem, the field first. */
export function errorMessages(problems: Record<string, string[]>): string[] {
  return Object.entries(problems).flatMap(([field, messages]) => messages.map((message) => `${field} ${message}`));
}

/**
 * Checks an invoice about to be saved against what KSeF takes, while KSeF is on for the account.
 * With `validate_invoices_for_gov` (the default) a problem refuses the save with a 422 naming each
 * field; without it the invoice is saved with `gov_error_messages`.
 */
export async function checkForKsef<T extends InvoiceData>(
  tx: Sql,
  account: Account,
  saved: T,
  before?: InvoiceData,
  known?: KsefSettings,
  options: { ratePending?: boolean } = {},
): Promise<T> {
  const data = saved as unknown as Stored;
  const current = before as Stored | undefined;
  // In production an invoice KSeF accepted is final (hosted guide); DEMO blocks nothing.
  if (current?.gov_status === 'ok') {
    throw invalid({ base: ['was accepted by KSeF and can no longer be changed: issue a correction instead'] });
  }
  const settings = known ?? (await readKsefSettings(tx, account.id));
  if (settings.environment === 'off' || !isKsefKind(data.kind)) return saved;
  // Without a kind, a prefixed number says it (hosted guide): `DE…` is `nip_ue`, `CH…` `other`.
  if (!data.buyer_tax_no_kind) {
    const inferred = inferTaxNoKind(null, data.buyer_tax_no);
    if (inferred) data.buyer_tax_no_kind = inferred;
  }
  const context = await fa3ContextOf(tx, account.id, data);
  if (data.kind === 'correction' && !data.gov_corrected_invoice_number && context.corrected?.ksefNumber) {
    data.gov_corrected_invoice_number = context.corrected.ksefNumber;
  }
  const problems = { ...fa3Problems(fa3InvoiceOf(data), context), ...(data.kind === 'correction' ? correctionProblems(data, context.corrected as CorrectedReference | null) : {}) };
  // An invoice waiting for its NBP rate gets it before it goes to KSeF: that is no reason to refuse it.
  if (options.ratePending) delete problems.exchange_currency_rate;
  if (Object.keys(problems).length === 0) {
    data.gov_error_messages = null;
    return saved;
  }
  if (settings.validate_invoices_for_gov) throw invalid(problems);
  data.gov_error_messages = errorMessages(problems);
  return saved;
}

/** Whether `auto_send_mode` sends this invoice without being asked. */
export function sendsAutomatically(settings: KsefSettings, data: Stored): boolean {
  if (!isConnected(settings) || !isKsefKind(data.kind)) return false;
  const country = (data.buyer_country ?? '').trim().toUpperCase();
  switch (settings.auto_send_mode) {
    case 'all':
      return true;
    case 'all_companies':
      return data.buyer_company === true;
    case 'pl_companies':
      return data.buyer_company === true && (country === '' || country === 'PL' || country === 'POLSKA' || country === 'POLAND');
    default:
      return false;
  }
}

/**
 * Sends an invoice to KSeF (`gov_save_and_send`, `send_to_ksef=yes`, automatic sending): in the
 * caller's transaction the exact FA(3) document is written to the queue and the invoice answers
 * `processing`; the sender does the rest. Kinds that do not go to KSeF are `not_applicable`, an
 * account without KSeF `not_connected`, an invoice KSeF would refuse `send_error` with its reasons.
 * An invoice already in KSeF, or on its way, is left as it is.
 */
export async function requestSend(tx: Sql, account: Pick<Account, 'id'>, row: StoredRow<InvoiceData>, runtime: KsefRuntime, known?: KsefSettings): Promise<StoredRow<InvoiceData>> {
  const data = { ...row.data } as Stored;
  const settings = known ?? (await readKsefSettings(tx, account.id));
  const save = (fields: Record<string, unknown>) => updateRow(tx, 'invoices', account.id, row.id, { ...data, ...fields } as InvoiceData);
  if (!isKsefKind(data.kind)) return save({ gov_status: govStatus('not_applicable', settings.environment) });
  if (!isConnected(settings)) return save({ gov_status: govStatus('not_connected', settings.environment) });
  if (typeof data.gov_id === 'string' && data.gov_id) return row;
  // Waiting for its NBP rate: it goes once the rate worker has given it one, never without.
  if (data.exchange_rate_pending === true) return row;
  if (await ksefJobInFlight(tx, row.id)) return row;

  const context = await fa3ContextOf(tx, account.id, data);
  const invoice = fa3InvoiceOf(data);
  const problems = new Problems(fa3Problems(invoice, context));
  // A correction names the corrected invoice's KSeF number: it waits until that invoice has one.
  if (context.corrected?.pending && !context.corrected.ksefNumber) {
    problems.add('invoice_id', 'is still being sent to KSeF: send the correction once the corrected invoice has its KSeF number');
  }
  if (!problems.empty) {
    return save({ gov_status: govStatus('send_error', settings.environment), gov_error_messages: errorMessages(problems.fields) });
  }
  const now = runtime.clock();
  const xml = buildFa3(invoice, { ...context, createdAt: now });
  const seller = sellerNip(data)!;
  // OFFLINE24: an invoice dated before today was issued before it reaches KSeF (hosted guide).
  const offline = issuedOffline(data.issue_date, now);
  await queueKsefJob(tx, { accountId: account.id, invoiceId: row.id, environment: settings.environment, sellerNip: seller, offline, xml, nextAttemptAt: now });
  runtime.kick();
  return save({
    gov_status: govStatus('processing', settings.environment),
    gov_error_messages: null,
    gov_link: null,
    gov_send_date: timestampText(now),
    gov_sell_date: polishMidnight(data.sell_date ?? data.issue_date),
    gov_verification_link: verificationLink({
      environment: settings.environment,
      sellerNip: seller,
      issueDate: data.issue_date,
      xml,
      ...(runtime.localOrigin() ? { localOrigin: runtime.localOrigin()! } : {}),
    }),
    ...(context.corrected?.ksefNumber ? { gov_corrected_invoice_number: context.corrected.ksefNumber } : {}),
    // KOD II beside KOD I on an invoice issued offline, when the account has an Offline certificate.
    ...(offline ? await offlineCodeFields(tx, row.id, settings, now, runtime.localOrigin()) : { ksef_offline: false, ksef_certificate_link: null }),
  });
}

/**
 * After a create or an update: sends when the request asked (`gov_save_and_send`) or `auto_send_mode`
 * says so. `known` are the settings read before the write, so that an invoice that is not sent adds
 * no statement after its numbered insert, where the numbering lock is held until the commit.
 */
export async function sendAfterSave(tx: Sql, account: Account, row: StoredRow<InvoiceData>, asked: boolean, runtime: KsefRuntime, known?: KsefSettings): Promise<StoredRow<InvoiceData>> {
  if (asked) return requestSend(tx, account, row, runtime, known);
  const settings = known ?? (await readKsefSettings(tx, account.id));
  return sendsAutomatically(settings, row.data as Stored) ? requestSend(tx, account, row, runtime, settings) : row;
}

/** `gov_save_and_send` in the query, at the top of the body or inside the `invoice` wrapper; `send_to_ksef` likewise. */
export function askedToSend(query: Record<string, string | undefined>, body: Record<string, unknown>, names: readonly string[]): boolean {
  const wrapper = typeof body.invoice === 'object' && body.invoice !== null ? (body.invoice as Record<string, unknown>) : {};
  return names.some((name) => [query[name], body[name], wrapper[name]].some((value) => value === true || value === 1 || (typeof value === 'string' && /^(1|true|yes|on)$/i.test(value.trim()))));
}
