import * as z from 'zod';
import { successBody, type SuccessBody } from '../schemas/common.js';
import {
  invoice,
  invoiceList,
  invoiceSummary,
  sendByEmailResult,
  type Invoice,
  type InvoiceCreateInput,
  type InvoiceListQuery,
  type InvoiceStatus,
  type InvoiceSummary,
  type InvoiceUpdateInput,
  type InvoiceAdditionalField,
  type SendByEmailResult,
} from '../schemas/invoice.js';
import type { EInvoiceQuery } from '../schemas/einvoice.js';
import type { CallOptions, Transport } from '../transport.js';
import { collect, idSegment, paginate, toQuery, type Id } from './shared.js';

/** A key of an invoice as the schema declares it. */
export type InvoiceField = keyof typeof invoice.shape & string;
/** An invoice reduced to `F` and its `id`. */
export type InvoiceFields<F extends InvoiceField> = Pick<Invoice, F | 'id'>;

/** A page of invoices reduced to `F`, with the summary of its query when the service gave it. */
export interface InvoicePage<F extends InvoiceField> {
  invoices: InvoiceFields<F>[];
  summary?: InvoiceSummary;
  /** The answer's entity tag, where the service gives one: ask again with it as `ifNoneMatch`. */
  etag?: string;
  notModified?: false;
}

/** The answer to a `listPage` asked with `ifNoneMatch` when the page held is still current (304). */
export interface UnchangedPage {
  notModified: true;
}

/** The response header carrying a list's summary when it was asked for with `summary=true`. */
export const SUMMARY_HEADER = 'x-invoicekit-summary';

export interface SendByEmailOptions {
  /** Send to this address instead of the buyer's e-mail. */
  email_to?: string;
  /** Copy to this address. */
  email_cc?: string;
  /** Attach the PDF. */
  email_pdf?: boolean;
}

/** The syntax (`ubl` by default) and profile (`en16931` by default) of an e-invoice. */
export type EInvoiceOptions = CallOptions & EInvoiceQuery;

export interface PdfOptions extends CallOptions {
  printOption?: 'original' | 'copy';
  /** `facturx`: a Factur-X PDF/A-3 carrying the CII EN 16931 document (an extension of our service). */
  format?: 'facturx';
}

export interface GetInvoiceOptions extends CallOptions {
  /** Extra keys to read: `cancel_reason`, `connected_payments`, `corrected_content_before`, `corrected_content_after`. */
  additionalFields?: readonly InvoiceAdditionalField[];
}

export interface ChangeStatusOptions extends CallOptions {
  /** The day it was paid (with `paid`); today by default. */
  paidDate?: string;
}

export interface AdvanceOptions {
  /** `percent` of the order's gross amount, or a gross `amount`. Without it, everything not yet paid in advance. */
  mode?: 'percent' | 'amount';
  value?: number | string;
  /** The name of the advance's line. */
  positionName?: string;
  /** Any other invoice field (dates, payment terms, …). */
  invoice?: InvoiceCreateInput;
}

export interface InvoicesApi {
  /** One page of invoices (`GET /invoices`). Without `period` the service's default applies. */
  list(query?: InvoiceListQuery, options?: CallOptions): Promise<Invoice[]>;
  /**
   * One page of invoices with only `fields` of each (and `id`), checked against the invoice schema
   * field by field. Our service answers just these keys (`fields=…`, an extension); the hosted
   * service answers whole invoices and the other keys are dropped here. Cheaper to move and to
   * check than `list` when a page shows a few fields.
   */
  listFields<F extends InvoiceField>(fields: readonly F[], query?: InvoiceListQuery, options?: CallOptions): Promise<InvoiceFields<F>[]>;
  /**
   * As `listFields`, and asks in the same call for the summary of the same query (`summary=true`,
   * an extension of our service, answered in the `X-Invoicekit-Summary` header). `summary` is
   * undefined when the service did not give it (the hosted service): ask `summary` then.
   */
  listPage<F extends InvoiceField>(fields: readonly F[], query?: InvoiceListQuery, options?: CallOptions & { ifNoneMatch?: undefined }): Promise<InvoicePage<F>>;
  /**
   * As `listPage`, asked again with the `etag` of a page held: `{ notModified: true }` when the
   * service says that page and its summary are still current (our service on PGlite answers 304
   * while nothing has been written), else the new page.
   */
  listPage<F extends InvoiceField>(fields: readonly F[], query: InvoiceListQuery, options: CallOptions & { ifNoneMatch: string }): Promise<InvoicePage<F> | UnchangedPage>;
  /** Every invoice matching `query`, page by page: `for await (const invoice of invoices.iterate({ period: 'all' }))`. */
  iterate(query?: InvoiceListQuery, options?: CallOptions): AsyncIterable<Invoice>;
  /**
   * How many invoices match `query` and what is due and overdue on them per currency
   * (`GET /invoices/summary`, an extension of our service; the hosted service answers 404).
   */
  summary(query?: InvoiceListQuery, options?: CallOptions): Promise<InvoiceSummary>;
  /** One invoice with its positions (and the `additionalFields` asked for). */
  get(id: Id, options?: GetInvoiceOptions): Promise<Invoice>;
  /** The invoice as a PDF document. */
  pdf(id: Id, options?: PdfOptions): Promise<Uint8Array>;
  /**
   * The invoice as an EN 16931 e-invoice (`GET /invoices/<id>/einvoice.xml`, an extension of our
   * service): UBL 2.1 or CII D16B, under EN 16931, Peppol BIS 3.0 or XRechnung 3.0. What the profile
   * needs and the invoice lacks is a validation error naming each field.
   */
  einvoice(id: Id, options?: EInvoiceOptions): Promise<string>;
  /** Sends the invoice by e-mail to the buyer (or `email_to`); its status becomes `sent`. */
  sendByEmail(id: Id, email?: SendByEmailOptions, options?: CallOptions): Promise<SendByEmailResult>;
  /** Issues an invoice; `number: null` or none lets the service number it. */
  create(input: InvoiceCreateInput, options?: CallOptions): Promise<Invoice>;
  /** Changes the given fields; positions by `id`, `{ id, _destroy: 1 }` or new without `id`. */
  update(id: Id, input: InvoiceUpdateInput, options?: CallOptions): Promise<Invoice>;
  delete(id: Id, options?: CallOptions): Promise<SuccessBody>;
  /** The invoice with this `oid` (your order id), or undefined. */
  findByOid(oid: string, options?: CallOptions): Promise<Invoice | undefined>;
  /** The documents generated from invoice `invoiceId` (e.g. the final invoice of an advance). */
  findGeneratedFrom(invoiceId: Id, options?: CallOptions): Promise<Invoice[]>;
  /** The documents based on invoice `fromInvoiceId` (e.g. its corrections). */
  findBasedOn(fromInvoiceId: Id, options?: CallOptions): Promise<Invoice[]>;
  /** Sets the status (`issued`, `sent`, `paid`, `partial`, `rejected`); `paid` settles the whole amount. */
  changeStatus(id: Id, status: InvoiceStatus, options?: ChangeStatusOptions): Promise<Invoice>;
  /** Cancels an invoice (`cancelled: true`); the reason is read back with `additionalFields: ['cancel_reason']`. */
  cancel(id: Id, reason?: string, options?: CallOptions): Promise<Invoice>;
  /** A new document made from invoice `sourceId`: e.g. `{ kind: 'vat' }` from a proforma. */
  copy(sourceId: Id, input?: InvoiceCreateInput, options?: CallOptions): Promise<Invoice>;
  /** An advance invoice for part of order `orderId` (by percent or gross amount). */
  advance(orderId: Id, advance?: AdvanceOptions, options?: CallOptions): Promise<Invoice>;
  /** The final invoice of order `orderId`, deducting its advances (`advanceIds`, by default all of them). */
  final(orderId: Id, advanceIds?: readonly Id[], options?: CallOptions): Promise<Invoice>;
}

/** The invoice operations of spec §4.1, plus the service's status change. */
export function invoicesApi(transport: Transport): InvoicesApi {
  const list = async (query: InvoiceListQuery = {}, options?: CallOptions) =>
    transport.request({ method: 'GET', path: 'invoices', query: toQuery(query) }, invoiceList, options);
  const iterate = (query: InvoiceListQuery = {}, options?: CallOptions) => paginate(list, query, options);
  const fieldLists = new Map<string, z.ZodType<InvoiceFields<InvoiceField>[]>>();
  const fieldList = (fields: readonly InvoiceField[]) => {
    const names = [...new Set<InvoiceField>(['id', ...fields])].sort();
    for (const name of names) if (!Object.hasOwn(invoice.shape, name)) throw new TypeError(`${name} is not a field of an invoice`);
    const key = names.join(',');
    let schema = fieldLists.get(key);
    if (!schema) {
      // A plain object drops the keys it does not name without looking at them.
      schema = z.array(z.object(Object.fromEntries(names.map((name) => [name, invoice.shape[name]])))) as unknown as z.ZodType<InvoiceFields<InvoiceField>[]>;
      fieldLists.set(key, schema);
    }
    return { key, schema };
  };
  const listFields = async <F extends InvoiceField>(fields: readonly F[], query: InvoiceListQuery = {}, options?: CallOptions) => {
    const { key, schema } = fieldList(fields);
    const answer = await transport.request({ method: 'GET', path: 'invoices', query: { ...toQuery(query), fields: key } }, schema, options);
    return answer as InvoiceFields<F>[];
  };
  const listPage = async <F extends InvoiceField>(fields: readonly F[], query: InvoiceListQuery = {}, options?: CallOptions) => {
    const { key, schema } = fieldList(fields);
    const operation = { method: 'GET' as const, path: 'invoices', query: { ...toQuery(query), fields: key, summary: true } };
    const answered = await transport.answer(operation, schema, options);
    if (answered.notModified) return { notModified: true } as UnchangedPage;
    const { value, headers } = answered;
    const header = headers.get(SUMMARY_HEADER);
    // A header that is not a summary counts as none: the caller asks `summary` instead.
    const summary = header === null ? undefined : invoiceSummary.safeParse(parseJson(header));
    const etag = headers.get('etag');
    return {
      invoices: value as InvoiceFields<F>[],
      ...(summary?.success ? { summary: summary.data } : {}),
      ...(etag ? { etag } : {}),
    } as InvoicePage<F>;
  };

  return {
    list,
    listFields,
    // One function answers both overloads: a page only ever comes back unchanged when asked with `ifNoneMatch`.
    listPage: listPage as InvoicesApi['listPage'],
    iterate,
    summary: async (query = {}, options) =>
      transport.request({ method: 'GET', path: 'invoices/summary', query: toQuery(query) }, invoiceSummary, options),
    get: async (id, options = {}) =>
      transport.request(
        {
          method: 'GET',
          path: `invoices/${idSegment(id)}`,
          query: options.additionalFields?.length ? { 'additional_fields[invoice]': options.additionalFields.join(',') } : {},
        },
        invoice,
        options,
      ),
    pdf: async (id, options = {}) =>
      transport.bytes(
        { method: 'GET', path: `invoices/${idSegment(id)}`, extension: 'pdf', query: { print_option: options.printOption, format: options.format } },
        options,
      ),
    einvoice: async (id, options = {}) => {
      const bytes = await transport.bytes(
        { method: 'GET', path: `invoices/${idSegment(id)}/einvoice`, extension: 'xml', query: { syntax: options.syntax, profile: options.profile } },
        options,
      );
      return new TextDecoder().decode(bytes);
    },
    sendByEmail: async (id, email = {}, options) =>
      transport.request(
        { method: 'POST', path: `invoices/${idSegment(id)}/send_by_email`, query: toQuery(email) },
        sendByEmailResult,
        options,
      ),
    create: async (input, options) => transport.request({ method: 'POST', path: 'invoices', body: { invoice: input } }, invoice, options),
    update: async (id, input, options) =>
      transport.request({ method: 'PUT', path: `invoices/${idSegment(id)}`, body: { invoice: input } }, invoice, options),
    delete: async (id, options) => transport.request({ method: 'DELETE', path: `invoices/${idSegment(id)}` }, successBody, options),
    findByOid: async (oid, options) => (await list({ period: 'all', oid, per_page: 1 }, options))[0],
    findGeneratedFrom: async (invoiceId, options) =>
      collect(iterate({ period: 'all', invoice_id: idSegment(invoiceId) }, options)),
    findBasedOn: async (fromInvoiceId, options) =>
      collect(iterate({ period: 'all', from_invoice_id: idSegment(fromInvoiceId) }, options)),
    changeStatus: async (id, status, options = {}) =>
      transport.request(
        { method: 'POST', path: `invoices/${idSegment(id)}/change_status`, query: { status, paid_date: options.paidDate } },
        invoice,
        options,
      ),
    cancel: async (id, reason, options) =>
      transport.request(
        { method: 'POST', path: 'invoices/cancel', body: { invoice: { cancel_invoice_id: Number(idSegment(id)), cancel_reason: reason ?? null } } },
        invoice,
        options,
      ),
    copy: async (sourceId, input = {}, options) =>
      transport.request(
        { method: 'POST', path: 'invoices', body: { invoice: { ...input, copy_invoice_from: Number(idSegment(sourceId)) } } },
        invoice,
        options,
      ),
    advance: async (orderId, advance = {}, options) =>
      transport.request(
        {
          method: 'POST',
          path: 'invoices',
          body: {
            invoice: {
              ...advance.invoice,
              copy_invoice_from: Number(idSegment(orderId)),
              kind: 'advance',
              advance_creation_mode: advance.mode,
              advance_value: advance.value,
              position_name: advance.positionName,
            },
          },
        },
        invoice,
        options,
      ),
    final: async (orderId, advanceIds, options) =>
      transport.request(
        {
          method: 'POST',
          path: 'invoices',
          body: {
            invoice: {
              copy_invoice_from: Number(idSegment(orderId)),
              kind: 'final',
              ...(advanceIds ? { invoice_ids: advanceIds.map((id) => Number(idSegment(id))) } : {}),
            },
          },
        },
        invoice,
        options,
      ),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
