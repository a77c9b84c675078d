export { readFacturX, type FacturXReading } from './facturx.js';
export { validateEInvoice, type EInvoiceReport, type Profile, type RuleFailure, type Syntax } from './validate.js';
