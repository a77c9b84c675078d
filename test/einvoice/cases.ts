/**
 * The invoices of every kind the service issues, as literal API requests: each EN 16931 VAT
 * category, discounts, a foreign currency, advance and final invoices and corrections.
 */

export const SELLER = {
  seller_name: 'Fabryka Okien Sp. z o.o.',
  seller_tax_no: '5252248481',
  seller_street: 'ul. Prosta 1',
  seller_post_code: '00-838',
  seller_city: 'Warszawa',
  seller_country: 'PL',
  seller_email: 'faktury@okna.example',
  seller_phone: '+48 22 100 20 30',
  seller_bank_account: '61 1090 1014 0000 0712 1981 2874',
};

export const GERMAN_BUYER = {
  buyer_name: 'Fensterbau Müller GmbH',
  buyer_tax_no: 'DE123456789',
  buyer_street: 'Hauptstraße 5',
  buyer_post_code: '10115',
  buyer_city: 'Berlin',
  buyer_country: 'DE',
  buyer_email: 'rechnung@mueller.example',
  buyer_einvoice_address: '9930:DE123456789',
  buyer_reference: '04011000-12345-34',
};

export const POLISH_BUYER = {
  buyer_name: 'Budimex Dom S.A.',
  buyer_tax_no: '6272616681',
  buyer_street: 'ul. Długa 8',
  buyer_post_code: '31-147',
  buyer_city: 'Kraków',
  buyer_country: 'PL',
  buyer_einvoice_address: '9945:PL6272616681',
  buyer_reference: 'ZAM-2026-17',
};

export const US_BUYER = {
  buyer_name: 'Window World Inc.',
  buyer_tax_no: '98-7654321',
  buyer_street: '500 Main St',
  buyer_post_code: '10001',
  buyer_city: 'New York',
  buyer_country: 'US',
  buyer_einvoice_address: '0060:123456789',
  buyer_reference: 'PO-88',
};

const base = { issue_date: '2026-03-02', sell_date: '2026-03-02', payment_to: '2026-03-16', payment_type: 'transfer', ...SELLER };

/** Invoices that stand alone, by case name. */
export const STANDALONE: Record<string, Record<string, unknown>> = {
  'every Polish rate with a discount': {
    ...base,
    ...POLISH_BUYER,
    discount_kind: 'percent_unit',
    show_discount: true,
    positions: [
      { name: 'Okno PCV 120x150', quantity: 3, quantity_unit: 'szt.', tax: 23, price_net: '1250.00', discount_percent: '10' },
      { name: 'Montaż', quantity: 6, quantity_unit: 'h', tax: 8, price_net: '95.50' },
      { name: 'Poradnik', quantity: 1, quantity_unit: 'szt.', tax: 5, price_gross: '42.00' },
      { name: 'Utylizacja', quantity: 1, tax: 0, price_net: '30.00' },
    ],
  },
  'gross prices that round': {
    ...base,
    ...POLISH_BUYER,
    positions: [{ name: 'Klamka', quantity: 7, quantity_unit: 'szt.', tax: 23, price_gross: '19.99' }],
  },
  'exempt with its reason': {
    ...base,
    ...POLISH_BUYER,
    exempt_tax_kind: 'art. 43 ust. 1 pkt 29 lit. a ustawy o VAT',
    positions: [{ name: 'Szkolenie BHP', quantity: 1, tax: 'zw', price_net: '800.00' }],
  },
  'EU reverse charge for a service': {
    ...base,
    ...GERMAN_BUYER,
    reverse_charge: true,
    np_tax_kind: 'export_service_eu',
    positions: [{ name: 'Projekt techniczny', quantity: 1, tax: 'np', price_net: '2000.00' }],
  },
  'intra-community supply': {
    ...base,
    ...GERMAN_BUYER,
    kind: 'wdt',
    positions: [{ name: 'Okno PCV 120x150', quantity: 10, quantity_unit: 'szt.', tax: 0, price_net: '1100.00' }],
  },
  'export of goods': {
    ...base,
    ...US_BUYER,
    kind: 'export_products',
    positions: [{ name: 'Okno PCV 120x150', quantity: 4, quantity_unit: 'szt.', tax: 0, price_net: '1150.00' }],
  },
  'a service not subject to VAT here': {
    ...base,
    ...US_BUYER,
    np_tax_kind: 'export_service',
    positions: [{ name: 'Konsultacje', quantity: 5, quantity_unit: 'h', tax: 'np', price_net: '300.00' }],
  },
  'foreign currency with VAT in złoty': {
    ...base,
    ...POLISH_BUYER,
    currency: 'EUR',
    exchange_currency: 'PLN',
    exchange_currency_rate: '4.2718',
    positions: [{ name: 'Okno PCV 120x150', quantity: 2, quantity_unit: 'szt.', tax: 23, price_net: '310.00' }],
  },
  'OSS sale to a consumer in another member state': {
    ...base,
    buyer_name: 'Klara Schmidt',
    buyer_company: false,
    buyer_street: 'Lindenweg 2',
    buyer_post_code: '80331',
    buyer_city: 'München',
    buyer_country: 'DE',
    buyer_einvoice_address: '0088:4001234567891',
    buyer_reference: 'Bestellung 4711',
    use_oss: true,
    positions: [{ name: 'Kurs online', quantity: 1, tax: 19, price_gross: '119.00' }],
  },
  'a discount as an amount, paid in cash': {
    ...base,
    ...POLISH_BUYER,
    payment_type: 'cash',
    discount_kind: 'amount',
    positions: [{ name: 'Parapet', quantity: 4, quantity_unit: 'm', tax: 23, price_net: '80.00', discount: '25.50' }],
  },
};
