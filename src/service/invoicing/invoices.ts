import { decimal, toPlain } from '../../kernel/money.js';
import { MAX_YEAR } from '../../api/schemas/common.js';
import type { InvoiceStatus, invoiceCreateInput, invoiceUpdateInput } from '../../api/schemas/invoice.js';
import type { z } from 'zod';
import { type DepartmentData, defaultDepartment } from '../accounts.js';
import type { Sql } from '../db.js';
import type { Account } from '../account.js';
import { invalid, Problems } from '../domain-errors.js';
import { randomToken } from '../passwords.js';
import { findRow, insertRow, type StoredRow, todayText } from '../store.js';
import { type ClientData, matchClient } from '../data/clients.js';
import { invoiceOidTaken, lockInvoiceOid } from '../data/invoices.js';
import { computeTotals, DEFAULT_CURRENCY } from './amounts.js';
import { newClientData } from './clients.js';
import { addDays, assignNumber, insertNumbered } from './numbering.js';
import { buildPosition, lineIdSource, MAX_POSITIONS, type PositionContext, type StoredPosition, tooManyPositions } from './positions.js';

export { MAX_POSITIONS, type StoredPosition };

type CreateInput = z.output<typeof invoiceCreateInput>;
type PositionValues = NonNullable<CreateInput['positions']>[number];

export interface InvoiceData {
  number: string;
  kind: string;
  status: InvoiceStatus;
  income: boolean;
  issue_date: string;
  sell_date: string;
  payment_to: string | null;
  payment_to_kind: number | string | null;
  payment_type: string | null;
  place: string | null;
  price_net: string;
  price_tax: string;
  price_gross: string;
  paid: string;
  paid_date: string | null;
  currency: string;
  lang: string;
  client_id: number | null;
  department_id: number | null;
  seller_name: string | null;
  seller_tax_no: string | null;
  seller_street: string | null;
  seller_post_code: string | null;
  seller_city: string | null;
  seller_country: string | null;
  seller_email: string | null;
  seller_phone: string | null;
  seller_bank: string | null;
  seller_bank_account: string | null;
  buyer_name: string | null;
  buyer_tax_no: string | null;
  buyer_street: string | null;
  buyer_post_code: string | null;
  buyer_city: string | null;
  buyer_country: string | null;
  buyer_email: string | null;
  buyer_phone: string | null;
  buyer_first_name: string | null;
  buyer_last_name: string | null;
  buyer_company: boolean;
  show_discount: boolean;
  discount_kind: string | null;
  oid: string | null;
  from_invoice_id: number | null;
  invoice_id: number | null;
  product_id: number | null;
  warehouse_id: number | null;
  description: string | null;
  token: string;
  sent_time: string | null;
  from_api: boolean;
  test: boolean;
  positions: StoredPosition[];
}

const SELLER_FROM_DEPARTMENT = {
  seller_name: 'name',
  seller_tax_no: 'tax_no',
  seller_street: 'street',
  seller_post_code: 'post_code',
  seller_city: 'city',
  seller_country: 'country',
  seller_email: 'email',
  seller_phone: 'phone',
  seller_bank: 'bank',
  seller_bank_account: 'bank_account',
} as const satisfies Record<string, keyof DepartmentData>;

const BUYER_FROM_CLIENT = {
  buyer_name: 'name',
  buyer_tax_no: 'tax_no',
  buyer_street: 'street',
  buyer_post_code: 'post_code',
  buyer_city: 'city',
  buyer_country: 'country',
  buyer_email: 'email',
  buyer_phone: 'phone',
  buyer_first_name: 'first_name',
  buyer_last_name: 'last_name',
} as const satisfies Record<string, keyof ClientData>;

const PLAIN_FIELDS = [
  'payment_type', 'place', 'lang', 'oid', 'from_invoice_id', 'invoice_id', 'product_id', 'warehouse_id', 'description',
] as const;

function paymentDue(issueDate: string, kind: number | string | null, given: string | null | undefined): string | null {
  if (kind === 'off') return null;
  if (typeof kind === 'number') {
    const due = addDays(issueDate, kind);
    // A derived date stays within the supported years, like any date given.
    if (!/^\d{4}-/.test(due) || Number(due.slice(0, 4)) > MAX_YEAR) {
      throw invalid({ payment_to_kind: [`makes the payment date fall after the year ${MAX_YEAR}`] });
    }
    return due;
  }
  return given ?? null;
}

async function resolveDepartment(tx: Sql, account: Account, departmentId: number | null | undefined, problems: Problems) {
  if (departmentId != null) {
    const row = await findRow<DepartmentData>(tx, 'departments', account.id, departmentId);
    if (!row) problems.add('department_id', 'does not exist');
    return row;
  }
  return defaultDepartment(tx, account.id);
}

const comparable = (text: string | null | undefined) => (text ?? '').replace(/[^0-9a-z]/gi, '').toLowerCase();

/** True when the request names no seller, or names the department itself (by tax number, else by name). */
function sellerIsDepartment(input: { seller_name?: string | null; seller_tax_no?: string | null }, department?: DepartmentData): boolean {
  if (!department) return false;
  if (input.seller_tax_no?.trim()) return comparable(input.seller_tax_no) === comparable(department.tax_no);
  if (input.seller_name?.trim()) return comparable(input.seller_name) === comparable(department.name);
  return true;
}

/** Seller fields: those the request gave, the rest from the department. */
function sellerFields(input: Partial<Record<keyof typeof SELLER_FROM_DEPARTMENT, string | null | undefined>>, department?: DepartmentData) {
  const result = {} as Record<keyof typeof SELLER_FROM_DEPARTMENT, string | null>;
  for (const [field, source] of Object.entries(SELLER_FROM_DEPARTMENT) as [keyof typeof SELLER_FROM_DEPARTMENT, keyof DepartmentData][]) {
    result[field] = input[field] ?? ((department?.[source] as string | null | undefined) ?? null);
  }
  return result;
}

/** Buyer fields: those the request gave, the rest from the client. */
function buyerFields(input: Partial<Record<keyof typeof BUYER_FROM_CLIENT, string | null | undefined>>, client?: ClientData) {
  const result = {} as Record<keyof typeof BUYER_FROM_CLIENT, string | null>;
  for (const [field, source] of Object.entries(BUYER_FROM_CLIENT) as [keyof typeof BUYER_FROM_CLIENT, keyof ClientData][]) {
    result[field] = input[field] ?? ((client?.[source] as string | null | undefined) ?? null);
  }
  return result;
}

async function ensureOidFree(tx: Sql, account: Account, oid: string, exceptId = 0): Promise<void> {
  await lockInvoiceOid(tx, account.id, oid);
  if (await invoiceOidTaken(tx, account.id, oid, exceptId)) throw invalid({ oid: ['has already been taken'] });
}

export interface InvoiceDefaults {
  currency?: string;
  lang?: string;
}

/**
 * How an invoice without `client_id` finds its client (docs/decisions/buyer-matching.md):
 * `match` — the account's own API call: an existing client with the buyer's tax number, e-mail or
 * name (the hosted service's rule), else a new one; `new-client` — an anonymous buyer (checkout):
 * always a client record of its own, never an existing one.
 */
export type BuyerMatching = 'match' | 'new-client';

/**
 * Builds a new invoice from a create request (reference "Invoice" rules): seller from the
 * department, buyer from or into a client, amounts per position, dates and the number.
 */
export async function buildNewInvoice(
  tx: Sql,
  account: Account,
  input: CreateInput,
  now = new Date(),
  matching: BuyerMatching = 'match',
  options: { numberOnInsert?: boolean } = {},
): Promise<InvoiceData> {
  const problems = new Problems();
  const today = todayText(now);
  let positionsInput = input.positions ?? [];
  // The shortcut of spec §4.1 rule 3: client, department and product only.
  const shortcut = input.product_id != null && positionsInput.length === 0;
  if (shortcut) positionsInput = [{ product_id: input.product_id, quantity: '1' }];
  if (positionsInput.length === 0) problems.add('positions', "can't be blank");
  if (positionsInput.length > MAX_POSITIONS) throw tooManyPositions();

  const found = await resolveDepartment(tx, account, input.department_id, problems);
  // A seller named in the request that is not the default department is another entity: none of
  // the department's address or bank data may be mixed into it.
  const department = input.department_id != null || sellerIsDepartment(input, found?.data) ? found : undefined;

  let client: StoredRow<ClientData> | undefined;
  if (input.client_id != null) {
    client = await findRow<ClientData>(tx, 'clients', account.id, input.client_id);
    if (!client) problems.add('client_id', 'does not exist');
  }
  const buyer = buyerFields(input, client?.data);
  // A client_id that does not exist is the error to report, not the buyer data it would have given.
  if (!client && input.client_id == null && !buyer.buyer_name?.trim()) {
    const person = [buyer.buyer_first_name, buyer.buyer_last_name].filter(Boolean).join(' ');
    if (person) buyer.buyer_name = person;
    else problems.add('buyer_name', "can't be blank");
  }
  problems.throwIfAny();

  if (input.oid && input.oid_unique) await ensureOidFree(tx, account, input.oid);

  const currency = input.currency ?? DEFAULT_CURRENCY;
  const ctx: PositionContext = {
    tx,
    account,
    currency,
    discountKind: input.discount_kind ?? (positionsInput.some((p) => p.discount_percent != null || p.discount != null) ? 'percent_unit' : null),
    problems,
    lineIds: lineIdSource(tx, positionsInput.length),
  };
  const positions: StoredPosition[] = [];
  for (const [index, position] of positionsInput.entries()) {
    if (position._destroy) continue;
    const built = await buildPosition(ctx, position, index);
    if (built) positions.push(built);
  }
  problems.throwIfAny();

  if (!client) {
    if (matching === 'match') {
      client = await matchClient(tx, account.id, { name: buyer.buyer_name, tax_no: buyer.buyer_tax_no, email: buyer.buyer_email });
    }
    client ??= await insertRow(
      tx,
      'clients',
      account.id,
      newClientData({
        name: buyer.buyer_name,
        tax_no: buyer.buyer_tax_no,
        street: buyer.buyer_street,
        post_code: buyer.buyer_post_code,
        city: buyer.buyer_city,
        country: buyer.buyer_country,
        email: buyer.buyer_email,
        phone: buyer.buyer_phone,
        first_name: buyer.buyer_first_name,
        last_name: buyer.buyer_last_name,
        company: input.buyer_company ?? undefined,
        // What an anonymous buyer typed is their claim, never a record the account's own writes may match.
        self_service: matching === 'new-client',
      }),
    );
  }

  const kind = input.kind ?? 'vat';
  const issueDate = shortcut ? today : (input.issue_date ?? today);
  const paymentToKind: number | string | null = shortcut
    ? 5
    : (input.payment_to_kind ?? (input.payment_to ? 'other_date' : 7));
  const totals = computeTotals(positions);
  const data: InvoiceData = {
    number: '',
    kind,
    status: input.status ?? 'issued',
    income: input.income ?? true,
    issue_date: issueDate,
    sell_date: shortcut ? today : (input.sell_date ?? issueDate),
    payment_to: paymentDue(issueDate, paymentToKind, input.payment_to),
    payment_to_kind: paymentToKind,
    payment_type: null,
    place: null,
    ...totals,
    paid: '0.0',
    paid_date: null,
    currency,
    lang: input.lang ?? 'pl',
    client_id: client.id,
    department_id: department?.id ?? null,
    ...sellerFields(input, department?.data),
    ...buyer,
    buyer_company: input.buyer_company ?? client.data.company,
    show_discount: input.show_discount ?? ctx.discountKind !== null,
    discount_kind: ctx.discountKind,
    oid: null,
    from_invoice_id: null,
    invoice_id: null,
    product_id: null,
    warehouse_id: null,
    description: null,
    token: randomToken(18),
    sent_time: null,
    from_api: true,
    test: input.test ?? false,
    positions,
  };
  for (const field of PLAIN_FIELDS) if (input[field] != null) (data as unknown as Record<string, unknown>)[field] = input[field];
  if (data.status === 'paid') settlePaid(data, input.paid ?? data.price_gross, input.paid_date ?? today);
  else if (input.paid != null) settlePaid(data, input.paid, input.paid_date ?? today);
  // With `numberOnInsert`, a number not chosen by hand stays '' for `insertInvoice` to take.
  if (input.number?.trim() || !options.numberOnInsert) data.number = await assignNumber(tx, account.id, kind, issueDate, input.number);
  return data;
}

/** Stores a new invoice; one built with `numberOnInsert` takes its number in the same statement. */
export function insertInvoice(tx: Sql, accountId: number, data: InvoiceData): Promise<StoredRow<InvoiceData>> {
  return data.number === '' ? insertNumbered(tx, 'invoices', accountId, data) : insertRow(tx, 'invoices', accountId, data);
}

/** Sets `paid` and derives the status: paid in full, partly paid, or back to issued/sent. */
export function settlePaid(data: InvoiceData, paid: string, paidDate: string | null): void {
  const amount = decimal(paid);
  const gross = decimal(data.price_gross);
  data.paid = toPlain(amount).includes('.') ? toPlain(amount) : `${toPlain(amount)}.0`;
  if (amount.units > 0n && (amount.units * 10n ** BigInt(gross.scale)) >= (gross.units * 10n ** BigInt(amount.scale))) {
    data.status = 'paid';
    data.paid_date = paidDate;
  } else if (amount.units > 0n) {
    data.status = 'partial';
    data.paid_date = null;
  } else {
    if (data.status === 'paid' || data.status === 'partial') data.status = data.sent_time ? 'sent' : 'issued';
    data.paid_date = null;
  }
}

/** Fields every invoice has: an update may change them, never clear them. */
const NOT_NULL_ON_UPDATE = new Set(['kind', 'issue_date', 'sell_date', 'currency', 'lang', 'income', 'show_discount', 'test', 'buyer_company']);

/** Applies an update request: fields given replace, positions by `id`, `_destroy` or new. */
export async function applyInvoiceUpdate(
  tx: Sql,
  account: Account,
  invoiceId: number,
  current: InvoiceData,
  update: z.output<typeof invoiceUpdateInput>,
  now = new Date(),
): Promise<InvoiceData> {
  const problems = new Problems();
  const next: InvoiceData = { ...current };

  if (update.department_id != null && update.department_id !== current.department_id) {
    const department = await resolveDepartment(tx, account, update.department_id, problems);
    if (department) Object.assign(next, sellerFields({}, department.data), { department_id: department.id });
  }
  if (update.client_id != null && update.client_id !== current.client_id) {
    const client = await findRow<ClientData>(tx, 'clients', account.id, update.client_id);
    if (!client) problems.add('client_id', 'does not exist');
    else Object.assign(next, buyerFields({}, client.data), { client_id: client.id });
  }
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined || key === 'positions' || key === 'number' || key === 'oid_unique') continue;
    if (key === 'department_id' || key === 'client_id' || key === 'paid' || key === 'status') continue;
    if (value === null && NOT_NULL_ON_UPDATE.has(key)) {
      problems.add(key, "can't be blank");
      continue;
    }
    (next as unknown as Record<string, unknown>)[key] = value;
  }
  if (update.buyer_name !== undefined && !String(update.buyer_name ?? '').trim()) problems.add('buyer_name', "can't be blank");

  // Positions are priced in the invoice's (possibly new) currency and discount kind.
  const ctx: PositionContext = {
    tx,
    account,
    currency: next.currency,
    discountKind: (next.discount_kind as PositionContext['discountKind']) ?? null,
    problems,
    lineIds: lineIdSource(tx, update.positions?.filter((p) => p.id == null && !p._destroy).length ?? 1),
  };
  if (update.positions) {
    if (update.positions.length > MAX_POSITIONS) throw tooManyPositions();
    const positions = [...current.positions];
    for (const [index, position] of update.positions.entries()) {
      if (position.id != null) {
        const at = positions.findIndex((p) => p.id === position.id);
        if (at < 0) {
          problems.add(`positions.${index}.id`, 'does not exist');
          continue;
        }
        if (position._destroy) {
          positions.splice(at, 1);
          continue;
        }
        const built = await buildPosition(ctx, position, index, positions[at]);
        if (built) positions[at] = built;
      } else if (!position._destroy) {
        const built = await buildPosition(ctx, position, index);
        if (built) positions.push(built);
      }
    }
    if (positions.length === 0) problems.add('positions', "can't be blank");
    if (positions.length > MAX_POSITIONS) throw tooManyPositions();
    next.positions = positions;
  } else if (update.currency !== undefined || update.discount_kind !== undefined) {
    // A new currency or discount kind changes rounding: recompute every position.
    const positions: StoredPosition[] = [];
    for (const [index, position] of current.positions.entries()) {
      const built = await buildPosition(ctx, {} as PositionValues, index, position);
      if (built) positions.push(built);
    }
    next.positions = positions;
  }
  problems.throwIfAny();

  Object.assign(next, computeTotals(next.positions));
  if (update.payment_to_kind !== undefined || update.issue_date !== undefined || update.payment_to !== undefined) {
    if (update.payment_to !== undefined && update.payment_to_kind === undefined) next.payment_to_kind = 'other_date';
    next.payment_to = paymentDue(next.issue_date, next.payment_to_kind, update.payment_to ?? current.payment_to);
  }
  if (update.oid && update.oid_unique) await ensureOidFree(tx, account, update.oid, invoiceId);
  if (update.number !== undefined || update.kind !== undefined) {
    const wanted = update.number !== undefined ? update.number : current.number;
    if (wanted !== current.number || next.kind !== current.kind) {
      next.number = await assignNumber(tx, account.id, next.kind, next.issue_date, wanted, invoiceId);
    }
  }
  const today = todayText(now);
  if (update.status !== undefined && update.status !== null) applyStatus(next, update.status, today);
  if (update.paid != null) settlePaid(next, update.paid, update.paid_date ?? today);
  else if (update.status == null) settlePaid(next, next.paid, next.paid_date ?? today);
  return next;
}

/** `change_status` and a `status` in an update: `paid` settles the whole amount. */
export function applyStatus(data: InvoiceData, status: InvoiceStatus, today: string): void {
  if (status === 'paid') {
    settlePaid(data, data.price_gross, data.paid_date ?? today);
    return;
  }
  if (status === 'issued' || status === 'sent') {
    data.paid = '0.0';
    data.paid_date = null;
  }
  data.status = status;
}

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
