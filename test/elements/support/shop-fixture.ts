import { randomBytes } from 'node:crypto';
import { createInvoicingClient } from '../../../src/api/client.js';
import { issuePortalToken } from '../../../src/bff/index.js';
import { startTestService } from '../../helpers/service.js';
import { startFixtureBff } from './fixture-bff.js';
import { holdControl, startHoldingProxy } from './holding-proxy.js';

/**
 * The real parts the buy button's tests talk to: the service with its demo seed (products in PLN,
 * EUR and JPY, the test payment provider) and a BFF in front of it that allows the test page's
 * origin. The browser learns their addresses from `info` and what the service recorded for a
 * buyer's e-mail from `state`.
 */
export interface ShopFixtureInfo {
  /** The BFF's routes, for `endpoint`. */
  bff: string;
  /** The same BFF behind a proxy that holds answers when a test asks (`support/held-answers.ts`). */
  heldBff: string;
  /** The service, for direct mode's `app-url`. */
  service: string;
  account: string;
}

export interface ShopState {
  payments: { price: string; paid: boolean; provider_status: string | null; invoice_id: number | null; quantity: string; currency: string }[];
  invoices: { number: string; status: string; price_gross: string; currency: string; buyer_name: string | null; buyer_tax_no: string | null; lang: string; tax: string | undefined }[];
  mails: number;
}

export async function startShopFixture(options: { pageOrigins: string[] }) {
  const service = await startTestService({ seed: true });
  const api = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, retry: 0 });
  const portalSecret = randomBytes(32).toString('hex');
  const bff = await startFixtureBff(service, options.pageOrigins, portalSecret, { checkout: { testMode: true } });
  // The seller is registered for OSS: an electronic service to a consumer elsewhere in the EU carries that state's VAT.
  const [department] = await api.departments.list();
  await api.departments.update(department!.id, { oss_registered: true });
  const proxy = await startHoldingProxy(bff.url);
  const info: ShopFixtureInfo = { bff: `${bff.url}/bff`, heldBff: `${proxy.url}/bff`, service: service.url, account: service.prefix };
  return {
    info,
    /** Drives the holding proxy in front of the BFF (`holdControl`). */
    holds: (route: string, query: Record<string, string>) => holdControl(proxy, route, query),
    /** Every payment, invoice and e-mail the service holds for this buyer. */
    async state(email: string): Promise<ShopState> {
      const payments = (await api.payments.list({ per_page: 100 })).filter((p) => p.email === email) as unknown as ShopState['payments'];
      const invoices = await Promise.all(payments.filter((p) => p.invoice_id).map((p) => api.invoices.get(p.invoice_id!)));
      const outbox = (await (await fetch(`${service.url}/outbox.json`, { headers: { authorization: `Bearer ${service.apiToken}` } })).json()) as { to: string[] }[];
      return {
        payments: payments.map(({ price, paid, provider_status, invoice_id, quantity, currency }) => ({ price, paid, provider_status, invoice_id, quantity, currency })),
        invoices: invoices.map(({ number, status, price_gross, currency, buyer_name, buyer_tax_no, lang, positions }) => ({
          number, status, price_gross, currency, buyer_name, buyer_tax_no: buyer_tax_no ?? null, lang, tax: positions?.[0]?.tax,
        })),
        mails: outbox.filter((m) => m.to.includes(email)).length,
      };
    },
    /** Makes VIES's register of one member state unavailable (`up: false`) or answer again, for the service and the BFF alike. */
    vies(country: string, up: boolean): void {
      for (const vies of [service.registryDoubles!.vies, bff.registries.vies]) {
        if (up) vies.restore(country);
        else vies.makeUnavailable(country);
      }
    },
    /** A registered customer, signed in: their client record and a portal token for it, as a host's backend mints one. */
    async customer(fields: { name: string; email: string; tax_no?: string }): Promise<{ id: number; token: string }> {
      const created = await api.clients.create(fields);
      return { id: created.id, token: await issuePortalToken({ clientId: created.id, ttlSeconds: 3600 }, portalSecret) };
    },
    async stop(): Promise<void> {
      await proxy.close();
      await bff.close();
      await service.stop();
    },
  };
}
