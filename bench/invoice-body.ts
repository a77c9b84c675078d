/** The invoice every creation figure posts: five positions priced each way the interface allows. */
export function invoiceBody(token: string): string {
  return JSON.stringify({
    api_token: token,
    invoice: {
      kind: 'vat',
      buyer_name: 'Client1 SA',
      buyer_tax_no: '5252445767',
      positions: [
        { name: 'Produkt A1', tax: 23, total_price_gross: '10.23', quantity: 1 },
        { name: 'Produkt A2', tax: 8, total_price_gross: '50.00', quantity: 2 },
        { name: 'Produkt A3', tax: 5, price_net: '12.50', quantity: 3 },
        { name: 'Usługa B1', tax: 23, total_price_gross: '199.99', quantity: 1 },
        { name: 'Usługa B2', tax: 0, price_gross: '7.10', quantity: 10 },
      ],
    },
  });
}
