import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../src/service/db.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * An invoice's number is taken in its insert statement, and the counter's row lock lasts from that
 * statement to the commit: every other creation of the account waits for it. So nothing may run
 * between the two, and what a write's listeners need to know (whether a webhook listens) is read
 * before the insert. Each transaction's statements are recorded around the service's database.
 */
let service: TestService;
const transactions: string[][] = [];

beforeAll(async () => {
  service = await startTestService();
  const original = service.db.transaction.bind(service.db);
  service.db.transaction = (work) =>
    original((tx) => {
      const statements: string[] = [];
      transactions.push(statements);
      const recorded: Sql = { ...tx, query: (text, params) => (statements.push(text.replace(/\s+/g, ' ').trim()), tx.query(text, params)) };
      return work(recorded);
    });
});
afterAll(() => service.stop());

async function create(buyer: string): Promise<{ id: number; number: string }> {
  transactions.length = 0;
  const response = await fetch(`${service.url}/invoices.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_token: service.apiToken, invoice: { kind: 'vat', buyer_name: buyer, positions: [{ name: 'Audit', tax: 23, total_price_gross: '100', quantity: 1 }] } }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; number: string };
}

const numbered = (statements: string[]) => statements.findIndex((text) => text.startsWith('with next as (insert into number_sequences'));

describe('the numbering lock', () => {
  it('is held by the last statement of a creation when no webhook listens', async () => {
    const invoice = await create('Lock One Ltd');
    const creation = transactions.find((statements) => numbered(statements) >= 0)!;
    expect(creation, JSON.stringify(transactions)).toBeDefined();
    expect(numbered(creation)).toBe(creation.length - 1);
    expect(invoice.number).toMatch(/\d/);
  });

  it('is followed only by the delivery a listening webhook needs, queued in the same transaction', async () => {
    const hook = await fetch(`${service.url}/webhooks.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_token: service.apiToken, webhook: { kind: 'invoice:create', url: 'https://hooks.example.com/in', active: true } }),
    });
    expect(hook.status).toBe(201);
    const invoice = await create('Lock Two Ltd');
    const creation = transactions.find((statements) => numbered(statements) >= 0)!;
    const after = creation.slice(numbered(creation) + 1);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatch(/^insert into webhook_deliveries/);
    const queued = await service.db.query(`select 1 from webhook_deliveries where record_table = 'invoices' and record_id = $1`, [invoice.id]);
    expect(queued).toHaveLength(1);
  });
});
