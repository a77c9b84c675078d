import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerCacheOf } from '../../src/service/answer-cache.js';
import { NOT_FOUND, secondAccount } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

/** A VAT invoice for `buyer` on `at`, through the API: its id. */
async function createInvoice(at: TestService, buyer: string, gross: string): Promise<number> {
  const response = await fetch(`${at.url}/invoices.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      api_token: at.apiToken,
      invoice: { kind: 'vat', buyer_name: buyer, positions: [{ name: 'Produkt', tax: 23, total_price_gross: gross, quantity: 1 }] },
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** The PDF of invoice `id` on `at`. */
const pdfOf = async (at: TestService, id: number) => Buffer.from(await (await fetch(`${at.url}/invoices/${id}.pdf?api_token=${at.apiToken}`)).arrayBuffer());

/**
 * Invoice reads are kept until the next write on PGlite (see docs/decisions/service-speed.md):
 * whatever writes, through the API or straight to the database, in any table, the next read
 * answers from the database again. On PostgreSQL nothing is kept and the same reads hold.
 */
describe('kept invoice reads', () => {
  let service: TestService;
  let id: number;
  const read = async (query = '') => {
    const response = await fetch(`${service.url}/invoices/${id}.json?api_token=${service.apiToken}${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown> & { connected_payments?: unknown[] };
  };

  beforeAll(async () => {
    service = await startTestService();
    id = await createInvoice(service, 'Client1 SA', '10.23');
  });
  afterAll(() => service.stop());

  // Only PGlite counts writes: on PostgreSQL nothing is kept, so there is nothing to keep either.
  it.skipIf(process.env.DATABASE_URL)('keeps them while the webhook worker finds nothing to send', async () => {
    const writes = service.db.writeCount!();
    expect(await service.webhooks.runOnce()).toBe(0);
    expect(service.db.writeCount!()).toBe(writes);
  });

  it.skipIf(process.env.DATABASE_URL)('keeps them while the KSeF sender finds nothing to send', async () => {
    const writes = service.db.writeCount!();
    expect(await service.ksefSender.runOnce()).toBe(0);
    expect(service.db.writeCount!()).toBe(writes);
  });

  it.skipIf(process.env.DATABASE_URL)('keeps them while the recurring invoice scheduler finds nothing due', async () => {
    const writes = service.db.writeCount!();
    expect(await service.scheduler.runDue()).toBe(0);
    expect(service.db.writeCount!()).toBe(writes);
  });

  it('answers an update made through the API at once', async () => {
    expect((await read()).buyer_name).toBe('Client1 SA');
    expect((await read()).buyer_name).toBe('Client1 SA');
    const update = await fetch(`${service.url}/invoices/${id}.json`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_token: service.apiToken, invoice: { buyer_name: 'Client2 SA' } }),
    });
    expect(update.status).toBe(200);
    expect((await read()).buyer_name).toBe('Client2 SA');
  });

  it('answers a change written straight to the database, outside and inside a transaction', async () => {
    await read();
    await service.db.query(`update invoices set data = jsonb_set(data, '{buyer_name}', '"Client3 SA"') where id = $1`, [id]);
    expect((await read()).buyer_name).toBe('Client3 SA');
    await service.db.transaction(async (tx) => {
      await tx.query(`update invoices set data = jsonb_set(data, '{buyer_name}', '"Client4 SA"') where id = $1`, [id]);
    });
    expect((await read()).buyer_name).toBe('Client4 SA');
  });

  it('answers a new payment of the invoice, kept in another table', async () => {
    const query = '&additional_fields[invoice]=connected_payments';
    expect((await read(query)).connected_payments).toEqual([]);
    const payment = await fetch(`${service.url}/banking/payments.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        api_token: service.apiToken,
        banking_payment: { name: 'Payment 1', price: '10.23', currency: 'PLN', invoice_id: id, paid: true, kind: 'api' },
      }),
    });
    expect(payment.status).toBe(201);
    expect((await read(query)).connected_payments).toHaveLength(1);
  });

  it('counts a new invoice in the next list and summary', async () => {
    const list = async () => (await (await fetch(`${service.url}/invoices.json?api_token=${service.apiToken}&period=all`)).json()) as unknown[];
    const summary = async () =>
      ((await (await fetch(`${service.url}/invoices/summary?api_token=${service.apiToken}&period=all`)).json()) as { count: number }).count;
    const [listed, counted] = [(await list()).length, await summary()];
    expect(await summary()).toBe(counted);
    await service.db.query(`insert into invoices (account_id, data) select account_id, data || '{"number": "K/1", "token": "kept-answers-k1"}' from invoices where id = $1`, [id]);
    expect((await list()).length).toBe(listed + 1);
    expect(await summary()).toBe(counted + 1);
  });

  it('renders the PDF again after the invoice changed', async () => {
    const pdf = () => pdfOf(service, id);
    const before = await pdf();
    expect(before.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await pdf()).equals(before)).toBe(true);
    await service.db.query(`update invoices set data = jsonb_set(data, '{buyer_name}', '"Client6 SA"'), updated_at = now() where id = $1`, [id]);
    expect((await pdf()).equals(before)).toBe(false);
  });

  it('never hands one service’s PDF to another service in the same process', async () => {
    // A second service in this process, on its own database: the same account and invoice ids, and
    // the same update time, are another account's invoice there.
    const other = await startTestService();
    try {
      expect(await createInvoice(other, 'Someone Else SA', '99.00'), 'the same invoice id in both databases').toBe(id);
      const stamp = `update invoices set updated_at = '2026-01-02T03:04:05.678Z' where id = $1`;
      await Promise.all([service.db.query(stamp, [id]), other.db.query(stamp, [id])]);
      const mine = await pdfOf(service, id);
      const theirs = await pdfOf(other, id);
      expect(theirs.subarray(0, 5).toString()).toBe('%PDF-');
      expect(theirs.equals(mine), 'the other service answered this one’s PDF').toBe(false);
      expect((await pdfOf(service, id)).equals(mine)).toBe(true);
    } finally {
      await other.stop();
    }
  });

  it('never keeps what was read while a write was under way', async () => {
    const cache = answerCacheOf(service.db);
    if (!cache) return expect(service.db.kind).toBe('postgres');
    const key = `test ${id}`;
    let reads = 0;
    const name = async () => {
      reads += 1;
      return (await service.db.query<{ name: string }>(`select data->>'buyer_name' as name from invoices where id = $1`, [id]))[0]!.name;
    };
    // A read whose write lands before it is kept: the next asks the database again.
    await cache.get(key, async () => {
      const value = await name();
      await service.db.query(`update invoices set data = jsonb_set(data, '{buyer_name}', '"Client5 SA"') where id = $1`, [id]);
      return value;
    });
    expect(await cache.get(key, name)).toBe('Client5 SA');
    expect(await cache.get(key, name)).toBe('Client5 SA');
    expect(reads).toBe(2);
  });

  it('never answers one account with what another account read at the same address', async () => {
    const other = await secondAccount(service, 'kept-other');
    const at = (token: string) => fetch(`${service.url}/invoices/${id}.json`, { headers: { authorization: `Bearer ${token}` } });
    expect((await at(service.apiToken)).status).toBe(200);
    expect((await at(service.apiToken)).status).toBe(200);
    const intruder = await at(other.token);
    expect(intruder.status).toBe(404);
    expect(await intruder.json()).toEqual(NOT_FOUND);
  });
});
