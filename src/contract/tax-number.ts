import type { ClientFieldProblem } from './sale.js';

/**
 * What the BFF's `GET /bff/tax-number?country=DE&tax_no=DE136695976` answers: the problem the full
 * check of a client's tax number (the NIP checksum, each EU state's VAT check digits) finds with it
 * for that country, `null` when it finds none. `<client-form>` asks it for the check digits it does
 * not carry (docs/decisions/client-form-weight.md).
 */
export interface TaxNumberVerdict {
  problem: Extract<ClientFieldProblem, 'nip' | 'vat' | 'taxNo'> | null;
}
