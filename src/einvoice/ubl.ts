import type { EInvoice, InvoiceLine, Party, PostalAddress, VatBreakdown } from './model.js';
import { el, group, leaf, xmlDocument, type XmlNode } from './xml-writer.js';

/**
 * UBL 2.1 `Invoice`, or `CreditNote` for a credit, as Peppol BIS Billing 3.0 lays it out: the
 * elements in the schema's order, every amount with its currency, nothing empty.
 */

const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

const VAT = el('cac:TaxScheme', null, el('cbc:ID', null, 'VAT'));

function address(name: string, a: PostalAddress): XmlNode {
  return el(name, null,
    leaf('cbc:StreetName', a.street),
    leaf('cbc:CityName', a.city),
    leaf('cbc:PostalZone', a.postCode),
    el('cac:Country', null, el('cbc:IdentificationCode', null, a.country)),
  );
}

function party(role: 'cac:AccountingSupplierParty' | 'cac:AccountingCustomerParty', p: Party): XmlNode {
  return el(role, null, el('cac:Party', null,
    p.electronicAddress && el('cbc:EndpointID', { schemeID: p.electronicAddress.scheme }, p.electronicAddress.id),
    el('cac:PartyName', null, el('cbc:Name', null, p.name)),
    address('cac:PostalAddress', p.address),
    p.vatId && el('cac:PartyTaxScheme', null, el('cbc:CompanyID', null, p.vatId), VAT),
    el('cac:PartyLegalEntity', null, el('cbc:RegistrationName', null, p.name), leaf('cbc:CompanyID', p.legalRegistrationId)),
    p.contact && group('cac:Contact', leaf('cbc:Name', p.contact.name), leaf('cbc:Telephone', p.contact.phone), leaf('cbc:ElectronicMail', p.contact.email)),
  ));
}

function taxCategory(name: 'cac:TaxCategory' | 'cac:ClassifiedTaxCategory', category: string, rate: string | null, exemption?: VatBreakdown): XmlNode {
  return el(name, null,
    el('cbc:ID', null, category),
    leaf('cbc:Percent', rate),
    exemption && leaf('cbc:TaxExemptionReasonCode', exemption.exemptionReasonCode),
    exemption && leaf('cbc:TaxExemptionReason', exemption.exemptionReason),
    VAT,
  );
}

function line(invoice: EInvoice, l: InvoiceLine): XmlNode {
  const currencyID = invoice.currency;
  const prefix = invoice.creditNote ? 'CreditNote' : 'Invoice';
  return el(`cac:${prefix}Line`, null,
    el('cbc:ID', null, l.id),
    el(invoice.creditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', { unitCode: l.unitCode }, l.quantity),
    el('cbc:LineExtensionAmount', { currencyID }, l.netAmount),
    l.allowance && el('cac:AllowanceCharge', null,
      el('cbc:ChargeIndicator', null, 'false'),
      el('cbc:AllowanceChargeReasonCode', null, l.allowance.reasonCode),
      el('cbc:AllowanceChargeReason', null, l.allowance.reason),
      leaf('cbc:MultiplierFactorNumeric', l.allowance.percent),
      el('cbc:Amount', { currencyID }, l.allowance.amount),
      leaf('cbc:BaseAmount', l.allowance.baseAmount, { currencyID }),
    ),
    el('cac:Item', null,
      el('cbc:Name', null, l.itemName),
      l.sellerItemId && el('cac:SellersItemIdentification', null, el('cbc:ID', null, l.sellerItemId)),
      taxCategory('cac:ClassifiedTaxCategory', l.vatCategory, l.vatRate),
    ),
    el('cac:Price', null, el('cbc:PriceAmount', { currencyID }, l.netPrice)),
  );
}

/** The document in UBL 2.1. */
export function toUbl(invoice: EInvoice): string {
  const currencyID = invoice.currency;
  const credit = invoice.creditNote;
  const t = invoice.totals;
  const payment = invoice.payment;
  const root = el(credit ? 'CreditNote' : 'Invoice', { xmlns: credit ? NS.creditNote : NS.invoice, 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc },
    el('cbc:CustomizationID', null, invoice.customizationId),
    leaf('cbc:ProfileID', invoice.profileId),
    el('cbc:ID', null, invoice.number),
    el('cbc:IssueDate', null, invoice.issueDate),
    !credit && leaf('cbc:DueDate', invoice.dueDate),
    el(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', null, invoice.typeCode),
    leaf('cbc:Note', invoice.note),
    el('cbc:DocumentCurrencyCode', null, invoice.currency),
    leaf('cbc:TaxCurrencyCode', invoice.vatAccountingCurrency),
    leaf('cbc:BuyerReference', invoice.buyerReference),
    invoice.orderReference && el('cac:OrderReference', null, el('cbc:ID', null, invoice.orderReference)),
    ...invoice.precedingInvoices.map((preceding) =>
      el('cac:BillingReference', null, el('cac:InvoiceDocumentReference', null, el('cbc:ID', null, preceding.number), leaf('cbc:IssueDate', preceding.issueDate))),
    ),
    party('cac:AccountingSupplierParty', invoice.seller),
    party('cac:AccountingCustomerParty', invoice.buyer),
    (invoice.deliveryDate || invoice.deliveryAddress) && el('cac:Delivery', null,
      leaf('cbc:ActualDeliveryDate', invoice.deliveryDate),
      invoice.deliveryAddress && el('cac:DeliveryLocation', null, address('cac:Address', invoice.deliveryAddress)),
    ),
    payment && el('cac:PaymentMeans', null,
      el('cbc:PaymentMeansCode', null, payment.meansCode),
      credit && leaf('cbc:PaymentDueDate', invoice.dueDate),
      el('cbc:PaymentID', null, payment.remittanceInformation),
      payment.account && el('cac:PayeeFinancialAccount', null, el('cbc:ID', null, payment.account), leaf('cbc:Name', payment.accountName)),
    ),
    invoice.paymentTerms && el('cac:PaymentTerms', null, el('cbc:Note', null, invoice.paymentTerms)),
    el('cac:TaxTotal', null,
      el('cbc:TaxAmount', { currencyID }, t.vat),
      ...invoice.vatBreakdown.map((b) => el('cac:TaxSubtotal', null,
        el('cbc:TaxableAmount', { currencyID }, b.taxableAmount),
        el('cbc:TaxAmount', { currencyID }, b.taxAmount),
        taxCategory('cac:TaxCategory', b.category, b.rate, b),
      )),
    ),
    invoice.vatAccountingCurrency && t.vatInAccountingCurrency && el('cac:TaxTotal', null, el('cbc:TaxAmount', { currencyID: invoice.vatAccountingCurrency }, t.vatInAccountingCurrency)),
    el('cac:LegalMonetaryTotal', null,
      el('cbc:LineExtensionAmount', { currencyID }, t.lineNet),
      el('cbc:TaxExclusiveAmount', { currencyID }, t.taxExclusive),
      el('cbc:TaxInclusiveAmount', { currencyID }, t.taxInclusive),
      t.prepaid !== '0.00' && el('cbc:PrepaidAmount', { currencyID }, t.prepaid),
      el('cbc:PayableAmount', { currencyID }, t.payable),
    ),
    ...invoice.lines.map((l) => line(invoice, l)),
  );
  return xmlDocument(root);
}
