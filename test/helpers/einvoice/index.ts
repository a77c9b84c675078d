export { validateEInvoice, type EInvoiceReport, type Profile, type RuleFailure, type Syntax } from './validate.js';
