import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api, NOT_FOUND } from '../helpers/http.js';

/** Recurring invoices issued by the service's scheduler, on a clock the test moves. */
let service: TestService;
let http: Api;
let now = new Date('2026-01-30T08:00:00Z');

beforeAll(async () => {
  service = await startTestService({ clock: () => now, schedulerIntervalMs: 100 });
  http = api(service);
});
afterAll(() => service.stop());

async function template() {
  const reply = await http.post('/invoices.json', {
    invoice: {
      kind: 'vat', number: null, sell_date: '2026-01-16', issue_date: '2026-01-16', payment_to: '2026-01-30',
      buyer_name: 'Klient1 Sp. z o.o.', buyer_email: 'buyer@testemail.pl', buyer_tax_no: '6272616681',
      positions: [
        { name: 'Produkt A1', tax: 23, total_price_gross: 10.23, quantity: 1 },
        { name: 'Produkt A2', tax: 0, total_price_gross: 50, quantity: 3 },
      ],
    },
  });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

async function issuedBy(recurringId: number) {
  const list = await http.get('/invoices.json', { period: 'all', per_page: 100, include_positions: 'true' });
  return (list.body as { recurring_id: number | null; issue_date: string }[])
    .filter((invoice) => invoice.recurring_id === recurringId)
    .sort((a, b) => a.issue_date.localeCompare(b.issue_date));
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('recurring invoices', () => {
  it('issue on their schedule, once per period, and catch up on missed periods', async () => {
    const source = await template();
    const created = await http.post('/recurrings.json', {
      recurring: {
        name: 'Nazwa cyklicznosci',
        invoice_id: source.id,
        start_date: '2026-02-01',
        every: '1m',
        issue_working_day_only: false,
        send_email: true,
        buyer_email: 'mail1@mail.pl, mail2@mail.pl',
        end_date: 'null',
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Nazwa cyklicznosci',
      invoice_id: source.id,
      start_date: '2026-02-01',
      every: '1m',
      issue_working_day_only: false,
      send_email: true,
      buyer_email: 'mail1@mail.pl, mail2@mail.pl',
      end_date: null,
      next_invoice_date: '2026-02-01',
      active: true,
      last_invoice_id: null,
      invoices_count: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.id as number;
    expect(await service.scheduler.runDue()).toBe(0);

    now = new Date('2026-02-01T06:00:00Z');
    const first = await until(() => issuedBy(id), (list) => list.length === 1);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      kind: 'vat',
      number: '1/02/2026',
      issue_date: '2026-02-01',
      sell_date: '2026-02-01',
      payment_to: '2026-02-15',
      buyer_name: 'Klient1 Sp. z o.o.',
      buyer_tax_no: '6272616681',
      price_net: '58.32',
      price_tax: '1.91',
      price_gross: '60.23',
      recurring_id: id,
    });
    expect((first[0] as unknown as { positions: { name: string; total_price_gross: string }[] }).positions.map((p) => [p.name, p.total_price_gross])).toEqual([
      ['Produkt A1', '10.23'],
      ['Produkt A2', '50.0'],
    ]);
    // The same period is never issued twice, however often the scheduler runs.
    expect(await Promise.all([service.scheduler.runDue(), service.scheduler.runDue()])).toEqual([0, 0]);
    const read = (await http.get(`/recurrings/${id}.json`)).body;
    expect(read).toMatchObject({ next_invoice_date: '2026-03-01', invoices_count: 1, last_invoice_id: (first[0] as unknown as { id: number }).id });

    // The e-mail goes out once the invoice is committed, with its PDF rendered outside the transaction.
    const mail = await until(
      () =>
        service.db.query<{ recipients: string[]; subject: string }>(`select recipients, subject from outbox_messages where invoice_id = $1`, [
          (first[0] as unknown as { id: number }).id,
        ]),
      (rows) => rows.length > 0,
    );
    expect(mail).toHaveLength(1);
    expect(JSON.stringify(mail[0]!.recipients)).toContain('mail1@mail.pl');
    expect(JSON.stringify(mail[0]!.recipients)).toContain('mail2@mail.pl');

    now = new Date('2026-05-15T12:00:00Z');
    const all = await until(() => issuedBy(id), (list) => list.length === 4);
    expect(all.map((invoice) => invoice.issue_date)).toEqual(['2026-02-01', '2026-03-01', '2026-04-01', '2026-05-01']);
    expect((await http.get(`/recurrings/${id}.json`)).body).toMatchObject({ next_invoice_date: '2026-06-01', invoices_count: 4 });

    // The documentation's update: move the next date.
    const moved = await http.put(`/recurrings/${id}.json`, { recurring: { next_invoice_date: '2026-07-01' } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id, next_invoice_date: '2026-07-01', start_date: '2026-02-01' });
    expect(await service.scheduler.runDue()).toBe(0);
  });

  it('issues on the next working day when asked, keeps the month-end, and stops at end_date', async () => {
    const source = await template();
    const weekly = (
      await http.post('/recurrings.json', {
        recurring: { name: 'Weekly', invoice_id: source.id, start_date: '2026-05-16', every: '1w', issue_working_day_only: true, end_date: '2026-05-23' },
      })
    ).body;
    const monthEnd = (
      await http.post('/recurrings.json', { recurring: { name: 'Month end', invoice_id: source.id, start_date: '2026-01-31', every: '1m', next_invoice_date: '2026-05-31' } })
    ).body;
    now = new Date('2026-06-30T10:00:00Z');
    await service.scheduler.runDue();
    const weeklyInvoices = await issuedBy(weekly.id);
    // 16 and 23 May 2026 are Saturdays: issued on the Mondays after, sold on the day itself.
    expect(weeklyInvoices.map((i) => [i.issue_date, (i as unknown as { sell_date: string }).sell_date])).toEqual([
      ['2026-05-18', '2026-05-16'],
      ['2026-05-25', '2026-05-23'],
    ]);
    expect((await http.get(`/recurrings/${weekly.id}.json`)).body).toMatchObject({ next_invoice_date: '2026-05-30', invoices_count: 2 });
    expect((await issuedBy(monthEnd.id)).map((i) => i.issue_date)).toEqual(['2026-05-31', '2026-06-30']);
    expect((await http.get(`/recurrings/${monthEnd.id}.json`)).body).toMatchObject({ next_invoice_date: '2026-07-31' });
  });

  it('answers the reference errors and deletes', async () => {
    const bad = await http.post('/recurrings.json', { recurring: { name: '', invoice_id: 999999, start_date: '2026-02-30', every: 'monthly' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.message).sort()).toEqual(['every', 'start_date']);
    const missing = await http.post('/recurrings.json', { recurring: { name: 'X', invoice_id: 999999, start_date: '2026-02-01', every: '1m' } });
    expect(missing.body).toEqual({ code: 'error', message: { invoice_id: ['does not exist'] } });
    const source = await template();
    const created = (await http.post('/recurrings.json', { recurring: { name: 'X', invoice_id: source.id, start_date: '2026-12-01', every: '1y' } })).body;
    const xml = await http.get(`/recurrings/${created.id}.xml`);
    expect(xml.body).toMatchObject({ id: created.id, every: '1y', next_invoice_date: '2026-12-01' });
    expect((await http.delete(`/recurrings/${created.id}.json`)).body).toEqual({ code: 'success', message: `recurring ${created.id} deleted` });
    expect((await http.get(`/recurrings/${created.id}.json`)).body).toEqual(NOT_FOUND);
  });
});
