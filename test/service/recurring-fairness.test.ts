import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULER_LIMITS, RecurringScheduler } from '../../src/service/invoicing/recurring-scheduler.js';
import { api, type Api, secondAccount } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * Finding 7 of issue 21: one account's recurring invoices must not starve another's. The service's
 * own scheduler never runs here (an hour apart, on a clock that stands still); the test runs a
 * scheduler of its own on the same database, with small limits, and reads what each run issued.
 */
const now = new Date('2026-11-24T08:00:00Z');
let service: TestService;
let victim: Api;
let neighbour: Api;

beforeAll(async () => {
  service = await startTestService({ clock: () => now, schedulerIntervalMs: 3_600_000 });
  victim = api(service);
  neighbour = await secondAccount(service, 'backlog');
}, 60_000);
afterAll(() => service?.stop());

async function schedule(account: Api, recurring: Record<string, unknown>) {
  const source = await account.post('/invoices.json', {
    invoice: { kind: 'vat', buyer_name: 'Klient Sp. z o.o.', positions: [{ name: 'Abonament', tax: 23, total_price_gross: '123.00', quantity: 1 }] },
  });
  expect(source.status).toBe(201);
  const created = await account.post('/recurrings.json', { recurring: { name: 'Abonament', invoice_id: source.body.id, ...recurring } });
  expect(created.status, created.text).toBe(201);
  return created.body.id as number;
}

async function issued(account: Api, recurringId: number) {
  const list = await account.get('/invoices.json', { period: 'all', per_page: 100 });
  return (list.body as { id: number; recurring_id: number | null; sell_date: string }[])
    .filter((invoice) => invoice.recurring_id === recurringId)
    .sort((a, b) => a.id - b.id);
}

describe('recurring schedules are fair per account and catch up a bounded number of periods', () => {
  it('refuses a next date far in the past, and takes one within the year', async () => {
    const source = await victim.post('/invoices.json', {
      invoice: { kind: 'vat', buyer_name: 'Klient', positions: [{ name: 'X', tax: 23, total_price_gross: '1.00', quantity: 1 }] },
    });
    const far = await victim.post('/recurrings.json', {
      recurring: { name: 'Old', invoice_id: source.body.id, start_date: '1900-01-01', every: '1d', active: false },
    });
    expect(far.status).toBe(422);
    expect(far.body).toEqual({ code: 'error', message: { next_invoice_date: ['must not be more than 366 days in the past'] } });
    const near = await victim.post('/recurrings.json', {
      recurring: { name: 'Near', invoice_id: source.body.id, start_date: '2026-01-01', every: '1m', active: false },
    });
    expect(near.status).toBe(201);
    const moved = await victim.put(`/recurrings/${near.body.id}.json`, { recurring: { next_invoice_date: '1900-01-01' } });
    expect(moved.status).toBe(422);
    expect((await victim.get(`/recurrings/${near.body.id}.json`)).body.next_invoice_date).toBe('2026-01-01');
  });

  it("issues the victim's invoice in the first turn of a run, before the neighbour's backlog, and bounds the backlog", async () => {
    // 24 daily periods due (November 1st to 24th), created first, so oldest-first would serve them all before anyone else.
    const backlog = await schedule(neighbour, { start_date: '2026-11-01', every: '1d' });
    const monthly = await schedule(victim, { start_date: '2026-11-24', every: '1m' });
    const scheduler = new RecurringScheduler(service.db, {
      clock: () => now,
      intervalMs: 3_600_000,
      publicUrl: () => service.url,
      maxPerRun: 3,
      perAccountPerRun: 2,
      maxCatchUp: 5,
    });

    expect(await scheduler.runDue()).toBe(3);
    expect(await issued(victim, monthly)).toHaveLength(1);
    expect(await issued(neighbour, backlog)).toHaveLength(2);

    // Runs until nothing is due: only the last five periods are caught up, the older ones skipped.
    while ((await scheduler.runDue()) > 0);
    const caughtUp = await issued(neighbour, backlog);
    expect(caughtUp.map((invoice) => invoice.sell_date)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24']);
    expect((await neighbour.get(`/recurrings/${backlog}.json`)).body).toMatchObject({ next_invoice_date: '2026-11-25', invoices_count: 5 });
  });

  it('keeps the documented defaults', () => {
    expect(DEFAULT_SCHEDULER_LIMITS).toEqual({ maxPerRun: 500, perAccountPerRun: 100, maxCatchUp: 12 });
  });
});
