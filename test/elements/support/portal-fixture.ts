import { createInvoicingClient } from '../../../src/api/client.js';
import { issuePortalToken } from '../../../src/bff/portal-token.js';
import { startTestService } from '../../helpers/service.js';
import { startFixtureBff } from './fixture-bff.js';
import { holdControl, startHoldingProxy } from './holding-proxy.js';
import { randomBytes } from 'node:crypto';

/**
 * The real parts the element tests talk to: the service with its demo seed, a BFF in front of it
 * that allows the test page's origin, and customers whose invoices cover every state the list
 * shows. The browser learns the BFF's address, the portal tokens and the seeded invoices from
 * `info`; nothing of ours is replaced.
 */

export interface SeededInvoice {
  id: number;
  number: string;
  issue_date: string;
  payment_to: string;
  price_gross: string;
  paid: string;
  currency: string;
  /** The status a customer should see, decided from the seed itself. */
  status: 'paid' | 'partial' | 'unpaid' | 'overdue';
}

export interface PortalFixtureInfo {
  bff: string;
  /** The same BFF behind a proxy that holds answers when a test asks (`support/held-answers.ts`). */
  heldBff: string;
  today: string;
  tokens: { main: string; empty: string; yen: string; scroll: string; expired: string; ksef: string; einvoice: string };
  invoices: { main: SeededInvoice[]; yen: SeededInvoice[]; scroll: SeededInvoice[]; ksef: SeededInvoice[]; einvoice: SeededInvoice[] };
}

const pad = (n: number, width = 3) => String(n).padStart(width, '0');

function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Cents as a decimal string, so amounts stay exact. */
const money = (cents: number) => `${Math.floor(cents / 100)}.${pad(cents % 100, 2)}`;

export async function startPortalFixture(options: { pageOrigins: string[] }) {
  const service = await startTestService({ seed: true });
  const api = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, retry: 0 });
  const portalSecret = randomBytes(32).toString('hex');
  // <client-form mode="create"> signs customers up.
  const bff = await startFixtureBff(service, options.pageOrigins, portalSecret, { signup: true });
  const proxy = await startHoldingProxy(bff.url);
  const today = new Date().toISOString().slice(0, 10);

  async function createInvoice(clientId: number, spec: Omit<SeededInvoice, 'id' | 'status'>): Promise<SeededInvoice> {
    const paidCents = Math.round(Number(spec.paid) * 100);
    const grossCents = Math.round(Number(spec.price_gross) * 100);
    const invoice = await api.invoices.create({
      kind: 'vat',
      number: spec.number,
      client_id: clientId,
      issue_date: spec.issue_date,
      sell_date: spec.issue_date,
      payment_to_kind: 'other_date',
      payment_to: spec.payment_to,
      currency: spec.currency,
      positions: [{ name: 'Design retainer', tax: '23', quantity: '1', total_price_gross: spec.price_gross }],
      ...(paidCents > 0 ? { paid: spec.paid, status: paidCents >= grossCents ? 'paid' : 'partial' } : {}),
    });
    const status = paidCents >= grossCents ? 'paid' : spec.payment_to < today ? 'overdue' : paidCents > 0 ? 'partial' : 'unpaid';
    return { ...spec, id: invoice.id, status };
  }

  /** Creates a few at a time: the HTTP round trips overlap while the service keeps its own order. */
  async function createInvoices(clientId: number, specs: Omit<SeededInvoice, 'id' | 'status'>[]): Promise<SeededInvoice[]> {
    const created: SeededInvoice[] = [];
    for (let i = 0; i < specs.length; i += 8) {
      created.push(...(await Promise.all(specs.slice(i, i + 8).map((spec) => createInvoice(clientId, spec)))));
    }
    return created;
  }

  const client = async (name: string) => (await api.clients.create({ name, email: `${name.toLowerCase().replace(/\W+/g, '.')}@example.com` })).id;
  const [mainId, emptyId, yenId, scrollId] = [await client('Main Customer'), await client('Empty Customer'), await client('Yen Customer'), await client('Scroll Customer')];

  // 60 invoices, one every 9 days back from today, due 30 days after issue: every state appears.
  const main = await createInvoices(
    mainId,
    Array.from({ length: 60 }, (_, i) => {
      const issue = addDays(today, -9 * i);
      const grossCents = 12_345 + i * 3_719;
      const paidCents = i % 3 === 0 ? grossCents : i % 5 === 1 ? 5_000 : 0;
      return {
        number: `FV/${pad(60 - i)}/2026`,
        issue_date: issue,
        payment_to: addDays(issue, 30),
        price_gross: money(grossCents),
        paid: money(paidCents),
        currency: 'PLN',
      };
    }),
  );
  const yen = await createInvoices(yenId, [
    { number: 'JP-1', issue_date: today, payment_to: addDays(today, 30), price_gross: '1500', paid: '0', currency: 'JPY' },
  ]);
  const scroll = await createInvoices(
    scrollId,
    Array.from({ length: 240 }, (_, i) => ({
      number: `S-${pad(i + 1, 4)}`,
      issue_date: addDays(today, -i),
      payment_to: addDays(today, 30 - i),
      price_gross: money(1_000 + i * 100),
      paid: '0.00',
      currency: 'EUR',
    })),
  );

  // One invoice in each KSeF state, as the sender leaves the hosted service's fields: sent, pending,
  // refused (with the seller's messages, which the customer must not see), KSeF unavailable, issued
  // offline and on its way, and one that never went to KSeF.
  const ksefId = await client('KSeF Customer');
  const ksefStates: Record<string, unknown>[] = [
    { gov_status: 'demo_ok', gov_id: '5252248481-20260202-0100001AF629-7B', gov_send_date: '2026-02-02T10:15:00.000+01:00', gov_verification_link: 'https://qr-test.ksef.mf.gov.pl/invoice/5252248481/02-02-2026/sent-hash' },
    { gov_status: 'demo_processing', gov_send_date: '2026-02-03T10:15:00.000+01:00', gov_verification_link: 'https://qr-test.ksef.mf.gov.pl/invoice/5252248481/03-02-2026/pending-hash' },
    { gov_status: 'demo_send_error', gov_send_date: '2026-02-04T10:15:00.000+01:00', gov_error_messages: ['buyer_tax_no seller-secret-detail: not a valid NIP'] },
    { gov_status: 'demo_server_error', gov_send_date: '2026-02-05T10:15:00.000+01:00', gov_error_messages: ['503 Service Unavailable'] },
    { gov_status: 'demo_processing', gov_send_date: '2026-02-07T10:15:00.000+01:00', gov_verification_link: 'https://qr-test.ksef.mf.gov.pl/invoice/5252248481/06-02-2026/offline-hash' },
    {},
  ];
  const ksef = await createInvoices(
    ksefId,
    ksefStates.map((_, i) => ({ number: `K-${i + 1}`, issue_date: `2026-02-0${i + 2}`, payment_to: addDays(today, 30), price_gross: '123.00', paid: '0.00', currency: 'PLN' })),
  );
  for (const [i, fields] of ksefStates.entries()) {
    await service.db.query(`update invoices set data = data || $2::jsonb where id = $1`, [ksef[i]!.id, JSON.stringify(fields)]);
  }

  // A customer who prefers e-invoices in CII: their rows offer the e-invoice beside the PDF.
  const einvoiceId = (
    await api.clients.create({
      name: 'Müller Handels GmbH',
      email: 'rechnungen@mueller.example',
      street: 'Hauptstraße 5',
      post_code: '10115',
      city: 'Berlin',
      country: 'DE',
      company: true,
    })
  ).id;
  await api.clients.update(einvoiceId, { einvoice_format: 'cii' });
  const einvoice = await createInvoices(einvoiceId, [
    { number: 'E-1', issue_date: today, payment_to: addDays(today, 14), price_gross: '246.00', paid: '0.00', currency: 'PLN' },
  ]);

  const token = (clientId: number, issuedAt?: Date) => issuePortalToken({ clientId, scopes: ['invoices:read'], ttlSeconds: 3600, issuedAt }, portalSecret);
  const info: PortalFixtureInfo = {
    bff: `${bff.url}/bff`,
    heldBff: `${proxy.url}/bff`,
    today,
    tokens: {
      main: await token(mainId),
      empty: await token(emptyId),
      yen: await token(yenId),
      scroll: await token(scrollId),
      // Issued two hours ago for one: expired however quickly a test sends it.
      expired: await token(mainId, new Date(Date.now() - 7_200_000)),
      ksef: await token(ksefId),
      einvoice: await token(einvoiceId),
    },
    invoices: { main, yen, scroll, ksef, einvoice },
  };

  return {
    info,
    /** Drives the holding proxy in front of the BFF (`holdControl`). */
    holds: (route: string, query: Record<string, string>) => holdControl(proxy, route, query),
    /** Records a payment on the service, as the shop's payment flow would. */
    async markPaid(id: number): Promise<void> {
      const invoice = await api.invoices.get(id);
      await api.invoices.update(id, { paid: invoice.price_gross, status: 'paid' });
    },
    /** A new customer of the account with a portal token that may read and change their record (for `<client-form>`). */
    async newCustomer(fields: Record<string, string | boolean> = {}): Promise<{ id: number; token: string; expiredToken: string; shortToken: string }> {
      const created = await api.clients.create({
        name: 'Nowak Design Sp. z o.o.',
        tax_no: '5252445767',
        email: `nowak.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`,
        street: 'ul. Prosta 51',
        post_code: '00-838',
        city: 'Warszawa',
        country: 'PL',
        company: true,
        ...fields,
      });
      const clientToken = (issuedAt?: Date, ttlSeconds = 3600) => issuePortalToken({ clientId: created.id, scopes: ['client:read', 'client:write'], ttlSeconds, issuedAt }, portalSecret);
      return {
        id: created.id,
        token: await clientToken(),
        // Issued two hours ago for one.
        expiredToken: await clientToken(new Date(Date.now() - 7_200_000)),
        // Runs out within 3 seconds, while a page is open.
        shortToken: await clientToken(undefined, 3),
      };
    },
    /** A client as the service's own API answers it. */
    async client(id: number) {
      return api.clients.get(id);
    },
    /** Clients found by e-mail through the service's API. */
    async clientsByEmail(email: string) {
      return api.clients.list({ email });
    },
    async stop(): Promise<void> {
      await proxy.close();
      await bff.close();
      await service.stop();
    },
  };
}
