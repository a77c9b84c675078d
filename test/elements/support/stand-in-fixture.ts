import { randomBytes } from 'node:crypto';
import { createInvoicingClient } from '../../../src/api/client.js';
import type { RunningBff, StartBffOptions } from '../../../src/bff/node.js';
import { issuePortalToken } from '../../../src/bff/portal-token.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { startFixtureBff } from './fixture-bff.js';

/**
 * The real answers Storybook's BFF stand-in (stories/support/bff-stand-in.ts) is checked against: the
 * seeded service, and BFFs in front of it set up the way each answer needs: a plain one (with sign-up),
 * one in test mode, one allowing a single checkout a minute, one whose service is down, and a
 * service with no payment provider for direct mode. One customer has a paid, a partly paid, an
 * unpaid and an overdue invoice.
 */
export interface StandInFixtureInfo {
  bff: string;
  testModeBff: string;
  /** Offers BLIK on the page (the service's test provider takes codes). */
  blikBff: string;
  limitedBff: string;
  deadBff: string;
  /** A service that takes no online payments, for direct mode's `app-url`. */
  noPaymentsService: string;
  account: string;
  /** Reads and changes the customer's invoices and record. */
  token: string;
  /** The same for a private person with no tax number, bank or address. */
  personToken: string;
  expiredToken: string;
  invoices: { paid: number; unpaid: number };
}

const addDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export async function startStandInFixture(options: { pageOrigins: string[] }) {
  const started: { close(): Promise<void> }[] = [];
  const services: TestService[] = [];
  try {
    const service = await startTestService({ seed: true });
    services.push(service);
    const noPayments = await startTestService({ seed: true, testPayments: false });
    services.push(noPayments);
    const portalSecret = randomBytes(32).toString('hex');
    const bff = async (extra: Partial<StartBffOptions> = {}): Promise<RunningBff> => {
      const running = await startFixtureBff(service, options.pageOrigins, portalSecret, { serviceTimeoutMs: 3000, ...extra });
      started.push(running);
      return running;
    };
    // The plain BFF is a live shop whatever the account says; the other follows the account, on the test provider.
    // BLIK is offered only by its own BFF, so the stand-in's other sale scenarios stay as they were.
    const plain = await bff({ signup: true, checkout: { testMode: false, blik: false } });
    const blik = await bff({ checkout: { testMode: false, blik: true } });
    const testMode = await bff();
    const limited = await bff({ rateLimit: { ip: false, token: false, list: false, create: { limit: 1, windowMs: 60_000 } } });
    // Nothing listens on port 1: every call to the service fails as it does when the service is down.
    const dead = await bff({ serviceUrl: 'http://127.0.0.1:1' });

    const api = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, retry: 0 });
    // Every field a customer sees is set on one client and left empty on the other, so the real answers show which may be null.
    const customer = await api.clients.create({
      name: 'Stand-in Company Sp. z o.o.', company: true, tax_no: '5252445767', person: 'Ewa Nowak', email: 'stand-in@example.com', phone: '+48 22 555 01 02',
      street: 'ul. Prosta 51', post_code: '00-838', city: 'Warszawa', country: 'PL', bank: 'mBank', bank_account: 'PL61109010140000071219812874',
    });
    const person = await api.clients.create({ name: 'Anna Kowalska', first_name: 'Anna', last_name: 'Kowalska', company: false, email: 'anna.stand-in@example.com',
      street: 'ul. Święty Marcin 3', post_code: '61-001', city: 'Poznań', country: 'PL',
    });
    const invoice = async (number: string, paid: string, issued: number, due: number) =>
      (
        await api.invoices.create({
          kind: 'vat',
          number,
          client_id: customer.id,
          issue_date: addDays(issued),
          sell_date: addDays(issued),
          payment_to_kind: 'other_date',
          payment_to: addDays(due),
          payment_type: 'transfer',
          buyer_street: 'ul. Prosta 51',
          buyer_post_code: '00-838',
          buyer_country: 'PL',
          currency: 'PLN',
          positions: [{ name: 'Design retainer', tax: '23', quantity: '1', total_price_gross: '1230.00' }],
          ...(paid !== '0' ? { paid, status: paid === '1230.00' ? 'paid' : 'partial' } : {}),
        })
      ).id;
    const paid = await invoice('SI/1', '1230.00', -40, -10);
    const partial = await invoice('SI/2', '200.00', -5, 25);
    const unpaid = await invoice('SI/3', '0', -3, 27);
    await invoice('SI/4', '0', -60, -30);
    // KSeF's states as the sender leaves them (sent with its number, on its way, refused), so that the
    // answers show the shape of each; SI/4 never went to KSeF.
    const ksef = async (id: number, fields: Record<string, unknown>) =>
      service.db.query(`update invoices set data = data || $2::jsonb where id = $1`, [id, JSON.stringify(fields)]);
    const sent = `${addDays(0)}T10:15:00.000+01:00`;
    await ksef(paid, { gov_status: 'demo_ok', gov_id: '5252248481-20260202-0100001AF629-7B', gov_send_date: sent, gov_verification_link: 'https://qr-test.ksef.mf.gov.pl/invoice/5252248481/02-02-2026/hash' });
    await ksef(partial, { gov_status: 'demo_processing', gov_send_date: sent, gov_verification_link: 'https://qr-test.ksef.mf.gov.pl/invoice/5252248481/02-02-2026/offline' });
    await ksef(unpaid, { gov_status: 'demo_send_error', gov_send_date: sent, gov_error_messages: ['buyer_tax_no is not a valid NIP'] });

    const token = (ttlSeconds: number, clientId = customer.id, issuedAt?: Date) =>
      issuePortalToken({ clientId, scopes: ['invoices:read', 'client:read', 'client:write', 'checkout'], ttlSeconds, issuedAt }, portalSecret);
    // Issued an hour ago for a minute: expired when the test sends it, with no waiting.
    const expiredToken = await token(60, customer.id, new Date(Date.now() - 3_600_000));

    const info: StandInFixtureInfo = {
      bff: `${plain.url}/bff`,
      testModeBff: `${testMode.url}/bff`,
      blikBff: `${blik.url}/bff`,
      limitedBff: `${limited.url}/bff`,
      deadBff: `${dead.url}/bff`,
      noPaymentsService: noPayments.url,
      account: noPayments.prefix,
      token: await token(3600),
      personToken: await token(3600, person.id),
      expiredToken,
      invoices: { paid, unpaid },
    };
    return { info, stop };
  } catch (error) {
    await stop();
    throw error;
  }

  async function stop(): Promise<void> {
    await Promise.all(started.map((each) => each.close()));
    await Promise.all(services.map((each) => each.stop()));
  }
}
