import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

async function api(method: string, path: string, body?: unknown) {
  const url = `${service.url}${path}${method === 'GET' ? `${path.includes('?') ? '&' : '?'}api_token=${service.apiToken}` : ''}`;
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify({ api_token: service.apiToken, ...body }),
  });
  return (await response.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const createInvoice = (buyer: string) =>
  api('POST', '/invoices.json', {
    invoice: {
      kind: 'vat',
      lang: 'pl',
      buyer_name: buyer,
      buyer_email: 'buyer@example.com',
      positions: [
        { name: 'Projekt <logo> & "identyfikacja"', tax: 23, total_price_gross: '123.00', quantity: 1 },
        { name: 'Konsultacja', tax: 23, total_price_gross: '61.50', quantity: 1 },
      ],
    },
  });

describe('public invoice links', () => {
  it('shows the invoice at view_url with no api_token, escaping what the buyer typed', async () => {
    const invoice = await createInvoice('Zażółć Gęślą Jaźń <script>alert(1)</script>');
    expect(invoice.view_url).toBe(`${service.url}/invoice/${invoice.token}`);
    const response = await fetch(invoice.view_url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await response.text();
    expect(page).toContain(invoice.number);
    expect(page).toContain('Zażółć Gęślą Jaźń &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script>');
    expect(page).toContain('Projekt &lt;logo&gt; &amp; &quot;identyfikacja&quot;');
    expect(page).toContain('184,50');
    expect(page).toContain(`href="/invoice/payment/${invoice.token}"`);
    expect(page).not.toContain(service.apiToken);
  });

  it('serves the PDF at the .pdf form of view_url', async () => {
    const invoice = await createInvoice('Buyer for PDF');
    const response = await fetch(`${invoice.view_url}.pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await response.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('pays the outstanding amount at payment_url through a real payment', async () => {
    const invoice = await createInvoice('Buyer who pays');
    await api('POST', '/banking/payments.json', { banking_payment: { name: 'Deposit', price: '50.00', invoice_id: invoice.id, paid: true, kind: 'api' } });
    const form = await fetch(invoice.payment_url);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('134,50');
    const paid = await fetch(invoice.payment_url, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`/invoice/${invoice.token}?paid`);
    const after = await api('GET', `/invoices/${invoice.id}.json`);
    expect(after).toMatchObject({ status: 'paid', paid: '184.5' });
    const payments = (await api('GET', `/banking/payments.json?invoice_id=${invoice.id}`)) as unknown as Record<string, unknown>[];
    expect(payments.map((p) => p.price).sort()).toEqual(['134.5', '50.0']);
    // Paying again does nothing: nothing is left.
    await fetch(invoice.payment_url, { method: 'POST', redirect: 'manual' });
    expect((await api('GET', `/invoices/${invoice.id}.json`)).paid).toBe('184.5');
  });

  it('answers 404 for unknown or guessed tokens and never by id', async () => {
    const invoice = await createInvoice('Buyer kept private');
    for (const path of ['/invoice/aaaaaaaaaaaaaaaaaaaaaaaa', `/invoice/${invoice.id}`, '/invoice/payment/bbbbbbbbbbbbbbbbbbbbbbbb', '/banking/payments/pay/cccccccccccccccccccccccc']) {
      const response = await fetch(`${service.url}${path}`);
      expect(response.status, path).toBe(404);
    }
  });
});

describe('checkout page of a payment created unpaid', () => {
  it('marks it paid, issues the invoice and sends the buyer back', async () => {
    const product = await api('POST', '/products.json', { product: { name: 'Coffee beans', price_gross: '89.90', tax: '5' } });
    const payment = await api('POST', '/banking/payments.json', {
      banking_payment: {
        name: 'Coffee beans',
        price: '179.80',
        quantity: 2,
        product_id: product.id,
        paid: false,
        kind: 'api',
        generate_invoice: true,
        email: 'ada@example.com',
        invoice_name: 'Ada Ltd',
        return_url: 'https://shop.example/thanks',
        cancel_url: 'https://shop.example/cart',
      },
    });
    expect(payment.payment_url).toMatch(new RegExp(`^${service.url}/banking/payments/pay/[A-Za-z0-9_-]{16,}$`));
    const page = await (await fetch(payment.payment_url)).text();
    expect(page).toContain('Coffee beans');
    // The seller, the line with unit price and VAT, the total and where the invoice goes.
    expect(page).toContain('Demo Studio');
    expect(page).toMatch(/PLN\s89\.90/);
    expect(page).toContain('5%');
    expect(page).toMatch(/class="total">PLN\s179\.80/);
    expect(page).toContain('ada@example.com');
    expect(page).toContain('Test mode');
    expect(page).toContain('return to shop.example');
    const paid = await fetch(payment.payment_url, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('https://shop.example/thanks');
    const after = await api('GET', `/banking/payment/${payment.id}.json`);
    expect(after).toMatchObject({ paid: true, provider: 'test' });
    expect(after.invoice_id).toEqual(expect.any(Number));
    const invoice = await api('GET', `/invoices/${after.invoice_id}.json`);
    expect(invoice).toMatchObject({ kind: 'vat', buyer_name: 'Ada Ltd', buyer_email: 'ada@example.com', price_gross: '179.8', status: 'paid' });
    // The issued invoice goes to the buyer by e-mail, with its PDF.
    const outbox = (await (await fetch(`${service.url}/outbox.json?api_token=${service.apiToken}`)).json()) as { subject: string; to: string[]; invoice_id: number; attachments: number }[];
    const mail = outbox.find((m) => m.to.includes('ada@example.com'));
    expect(mail?.subject).toContain(invoice.number);
    expect(mail).toMatchObject({ invoice_id: invoice.id, attachments: 1 });
    // Paying again changes nothing and sends nothing more.
    await fetch(payment.payment_url, { method: 'POST', redirect: 'manual' });
    const again = (await (await fetch(`${service.url}/outbox.json?api_token=${service.apiToken}`)).json()) as { to: string[] }[];
    expect(again.filter((m) => m.to.includes('ada@example.com'))).toHaveLength(1);
  });
});
