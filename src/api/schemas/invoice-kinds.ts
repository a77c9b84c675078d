export const INVOICE_KINDS = [
  'vat', 'proforma', 'bill', 'receipt', 'advance', 'final', 'correction', 'invoice_other', 'vat_margin',
  'kp', 'kw', 'estimate', 'vat_mp', 'vat_rr', 'correction_note', 'accounting_note', 'client_order', 'dw',
  'wnt', 'wdt', 'import_service', 'import_service_eu', 'import_products', 'export_products',
] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

export const INVOICE_STATUSES = ['issued', 'sent', 'paid', 'partial', 'rejected'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const DISCOUNT_KINDS = ['percent_unit', 'percent_unit_gross', 'percent_total', 'amount'] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];
