/**
 * A company's details by its tax number, as the service's `GET /a/<prefix>/widget/company/<country>/<tax_no>`
 * and the BFF's `GET /bff/company/<country>/<tax_no>` answer them, for a form to fill its company fields.
 */
export interface CompanyDetails {
  /** `null` where the register does not disclose it (VIES for some member states). */
  name: string | null;
  street: string | null;
  post_code: string | null;
  city: string | null;
  /** ISO 3166-1 (GR for Greece). */
  country: string;
  /** In its normal form: a NIP as ten digits, an EU VAT number with its prefix (`DE129273398`). */
  tax_no: string;
  /** An active VAT payer (`Czynny` on the white list; registered in VIES). */
  vat_active: boolean;
}
