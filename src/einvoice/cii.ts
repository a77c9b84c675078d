import type { EInvoice, InvoiceLine, Party, PostalAddress, VatBreakdown } from './model.js';
import { el, group, leaf, xmlDocument, type XmlNode } from './xml-writer.js';

/**
 * UN/CEFACT Cross Industry Invoice D16B as EN 16931 binds it. CII has no credit-note document: a
 * credit is type 381 with the credited amounts as they are.
 */

const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/** `2026-03-01` as CII writes a date (format 102). */
const date = (name: string, value: string, type: 'udt' | 'qdt' = 'udt') => el(name, null, el(`${type}:DateTimeString`, { format: '102' }, value.replaceAll('-', '')));

function address(a: PostalAddress): XmlNode {
  return el('ram:PostalTradeAddress', null,
    leaf('ram:PostcodeCode', a.postCode),
    leaf('ram:LineOne', a.street),
    leaf('ram:CityName', a.city),
    el('ram:CountryID', null, a.country),
  );
}

function party(role: 'ram:SellerTradeParty' | 'ram:BuyerTradeParty', p: Party): XmlNode {
  return el(role, null,
    el('ram:Name', null, p.name),
    p.legalRegistrationId && el('ram:SpecifiedLegalOrganization', null, el('ram:ID', null, p.legalRegistrationId)),
    p.contact && group('ram:DefinedTradeContact',
      leaf('ram:PersonName', p.contact.name),
      p.contact.phone && el('ram:TelephoneUniversalCommunication', null, el('ram:CompleteNumber', null, p.contact.phone)),
      p.contact.email && el('ram:EmailURIUniversalCommunication', null, el('ram:URIID', null, p.contact.email)),
    ),
    address(p.address),
    p.electronicAddress && el('ram:URIUniversalCommunication', null, el('ram:URIID', { schemeID: p.electronicAddress.scheme }, p.electronicAddress.id)),
    p.vatId && el('ram:SpecifiedTaxRegistration', null, el('ram:ID', { schemeID: 'VA' }, p.vatId)),
  );
}

function tradeTax(category: string, rate: string | null, breakdown?: VatBreakdown): XmlNode {
  return el('ram:ApplicableTradeTax', null,
    breakdown && el('ram:CalculatedAmount', null, breakdown.taxAmount),
    el('ram:TypeCode', null, 'VAT'),
    breakdown && leaf('ram:ExemptionReason', breakdown.exemptionReason),
    breakdown && el('ram:BasisAmount', null, breakdown.taxableAmount),
    el('ram:CategoryCode', null, category),
    breakdown && leaf('ram:ExemptionReasonCode', breakdown.exemptionReasonCode),
    leaf('ram:RateApplicablePercent', rate),
  );
}

function line(l: InvoiceLine): XmlNode {
  return el('ram:IncludedSupplyChainTradeLineItem', null,
    el('ram:AssociatedDocumentLineDocument', null, el('ram:LineID', null, l.id)),
    el('ram:SpecifiedTradeProduct', null, leaf('ram:SellerAssignedID', l.sellerItemId), el('ram:Name', null, l.itemName)),
    el('ram:SpecifiedLineTradeAgreement', null, el('ram:NetPriceProductTradePrice', null, el('ram:ChargeAmount', null, l.netPrice))),
    el('ram:SpecifiedLineTradeDelivery', null, el('ram:BilledQuantity', { unitCode: l.unitCode }, l.quantity)),
    el('ram:SpecifiedLineTradeSettlement', null,
      tradeTax(l.vatCategory, l.vatRate),
      l.allowance && el('ram:SpecifiedTradeAllowanceCharge', null,
        el('ram:ChargeIndicator', null, el('udt:Indicator', null, 'false')),
        leaf('ram:CalculationPercent', l.allowance.percent),
        leaf('ram:BasisAmount', l.allowance.baseAmount),
        el('ram:ActualAmount', null, l.allowance.amount),
        el('ram:ReasonCode', null, l.allowance.reasonCode),
        el('ram:Reason', null, l.allowance.reason),
      ),
      el('ram:SpecifiedTradeSettlementLineMonetarySummation', null, el('ram:LineTotalAmount', null, l.netAmount)),
    ),
  );
}

/** The document in CII D16B. */
export function toCii(invoice: EInvoice): string {
  const t = invoice.totals;
  const payment = invoice.payment;
  const root = el('rsm:CrossIndustryInvoice', { 'xmlns:rsm': NS.rsm, 'xmlns:ram': NS.ram, 'xmlns:qdt': NS.qdt, 'xmlns:udt': NS.udt },
    el('rsm:ExchangedDocumentContext', null,
      invoice.profileId && el('ram:BusinessProcessSpecifiedDocumentContextParameter', null, el('ram:ID', null, invoice.profileId)),
      el('ram:GuidelineSpecifiedDocumentContextParameter', null, el('ram:ID', null, invoice.customizationId)),
    ),
    el('rsm:ExchangedDocument', null,
      el('ram:ID', null, invoice.number),
      el('ram:TypeCode', null, invoice.typeCode),
      date('ram:IssueDateTime', invoice.issueDate),
      invoice.note && el('ram:IncludedNote', null, el('ram:Content', null, invoice.note)),
    ),
    el('rsm:SupplyChainTradeTransaction', null,
      ...invoice.lines.map(line),
      el('ram:ApplicableHeaderTradeAgreement', null,
        leaf('ram:BuyerReference', invoice.buyerReference),
        party('ram:SellerTradeParty', invoice.seller),
        party('ram:BuyerTradeParty', invoice.buyer),
        invoice.orderReference && el('ram:BuyerOrderReferencedDocument', null, el('ram:IssuerAssignedID', null, invoice.orderReference)),
      ),
      el('ram:ApplicableHeaderTradeDelivery', null,
        invoice.deliveryAddress && el('ram:ShipToTradeParty', null, address(invoice.deliveryAddress)),
        invoice.deliveryDate && el('ram:ActualDeliverySupplyChainEvent', null, date('ram:OccurrenceDateTime', invoice.deliveryDate)),
      ),
      el('ram:ApplicableHeaderTradeSettlement', null,
        payment && el('ram:PaymentReference', null, payment.remittanceInformation),
        leaf('ram:TaxCurrencyCode', invoice.vatAccountingCurrency),
        el('ram:InvoiceCurrencyCode', null, invoice.currency),
        payment && el('ram:SpecifiedTradeSettlementPaymentMeans', null,
          el('ram:TypeCode', null, payment.meansCode),
          payment.account && el('ram:PayeePartyCreditorFinancialAccount', null,
            /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(payment.account) ? el('ram:IBANID', null, payment.account) : el('ram:ProprietaryID', null, payment.account),
            leaf('ram:AccountName', payment.accountName),
          ),
        ),
        ...invoice.vatBreakdown.map((b) => tradeTax(b.category, b.rate, b)),
        (invoice.dueDate || invoice.paymentTerms) && el('ram:SpecifiedTradePaymentTerms', null,
          leaf('ram:Description', invoice.paymentTerms),
          invoice.dueDate && date('ram:DueDateDateTime', invoice.dueDate),
        ),
        el('ram:SpecifiedTradeSettlementHeaderMonetarySummation', null,
          el('ram:LineTotalAmount', null, t.lineNet),
          el('ram:TaxBasisTotalAmount', null, t.taxExclusive),
          el('ram:TaxTotalAmount', { currencyID: invoice.currency }, t.vat),
          invoice.vatAccountingCurrency && t.vatInAccountingCurrency && el('ram:TaxTotalAmount', { currencyID: invoice.vatAccountingCurrency }, t.vatInAccountingCurrency),
          el('ram:GrandTotalAmount', null, t.taxInclusive),
          t.prepaid !== '0.00' && el('ram:TotalPrepaidAmount', null, t.prepaid),
          el('ram:DuePayableAmount', null, t.payable),
        ),
        ...invoice.precedingInvoices.map((preceding) => el('ram:InvoiceReferencedDocument', null,
          el('ram:IssuerAssignedID', null, preceding.number),
          preceding.issueDate && date('ram:FormattedIssueDateTime', preceding.issueDate, 'qdt'),
        )),
      ),
    ),
  );
  return xmlDocument(root);
}
