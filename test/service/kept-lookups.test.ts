import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDepartment } from '../../src/service/accounts.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { Subscriber } from './support/subscriber.js';

/**
 * What an invoice creation looks up and PGlite keeps between creations (the main department, the
 * first user, the client of a buyer, whether a webhook listens; docs/decisions/invoice-create-speed.md):
 * whatever changes one of them, through the API or straight to the database, the next creation
 * sees it, and a change that rolled back is never seen. On PostgreSQL nothing is kept and the same
 * holds.
 */
describe('lookups of an invoice creation', () => {
  let service: TestService;
  let http: Api;
  const subscriber = new Subscriber();
  let accountId: number;
  let departmentId: number;

  const create = async (invoice: Record<string, unknown> = {}) => {
    const reply = await http.post('/invoices.json', {
      invoice: { kind: 'vat', buyer_name: 'Client1 SA', positions: [{ name: 'Produkt A1', tax: 23, total_price_gross: '10.23', quantity: 1 }], ...invoice },
    });
    expect(reply.status).toBe(201);
    return reply.body as { id: number; seller_name: string; department_id: number; client_id: number; user_id: number | null };
  };
  const renameDepartment = (name: string) =>
    service.db.query(`update departments set data = jsonb_set(data, '{name}', to_jsonb($2::text)) where id = $1`, [departmentId, name]);

  beforeAll(async () => {
    [service] = await Promise.all([startTestService({ webhooks: { allowPrivate: true, pollMs: 100 } }), subscriber.start()]);
    http = api(service);
    accountId = (await service.db.query<{ id: number }>('select id from accounts where prefix = $1', [service.prefix]))[0]!.id;
    departmentId = (await create()).department_id;
  });
  afterAll(async () => {
    await service.stop();
    await subscriber.stop();
  });

  it('takes the seller from the main department as it is now', async () => {
    expect((await create()).seller_name).toBe((await create()).seller_name);
    expect((await http.put(`/departments/${departmentId}.json`, { department: { name: 'Renamed through the API' } })).status).toBe(200);
    expect((await create()).seller_name).toBe('Renamed through the API');
    await renameDepartment('Renamed outside a transaction');
    expect((await create()).seller_name).toBe('Renamed outside a transaction');
    await service.db.transaction((tx) =>
      tx.query(`update departments set data = jsonb_set(data, '{name}', '"Renamed inside a transaction"') where id = $1`, [departmentId]),
    );
    expect((await create()).seller_name).toBe('Renamed inside a transaction');
    const another = await http.post('/departments.json', { department: { name: 'Second department', tax_no: '1112223344' } });
    expect(another.status).toBe(201);
    await service.db.query(`update departments set data = data || jsonb_build_object('main', id = $2) where account_id = $1`, [accountId, another.body.id]);
    expect((await create()).department_id).toBe(another.body.id);
    await service.db.query(`update departments set data = data || jsonb_build_object('main', id = $2) where account_id = $1`, [accountId, departmentId]);
    expect((await create()).department_id).toBe(departmentId);
  });

  it('never keeps what a transaction read of its own writes when it rolls back', async () => {
    await renameDepartment('Committed name');
    expect((await create()).seller_name).toBe('Committed name');
    await expect(
      service.db.transaction(async (tx) => {
        await tx.query(`update departments set data = jsonb_set(data, '{name}', '"Rolled back name"') where id = $1`, [departmentId]);
        expect((await defaultDepartment(tx, accountId))?.data.name).toBe('Rolled back name');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await defaultDepartment(service.db, accountId))?.data.name).toBe('Committed name');
    expect((await create()).seller_name).toBe('Committed name');
  });

  it('gives out kept values that no caller can change', async () => {
    const department = await defaultDepartment(service.db, accountId);
    if (!service.db.keep) return expect(service.db.kind).toBe('postgres');
    expect(() => Object.assign(department!.data, { name: 'Changed in memory' })).toThrow(TypeError);
    expect((await defaultDepartment(service.db, accountId))?.data.name).not.toBe('Changed in memory');
  });

  it('names the account first user as the author, as the users are now', async () => {
    const first = (await service.db.query<{ id: number }>('select id from users where account_id = $1 order by id limit 1', [accountId]))[0]?.id ?? null;
    expect((await create()).user_id).toBe(first);
    const [added] = await service.db.query<{ id: number }>(
      `insert into users (account_id, login, email, password_hash) values ($1, 'kept-lookups', 'kept-lookups@example.com', 'x') returning id`,
      [accountId],
    );
    expect((await create()).user_id).toBe(first ?? added!.id);
    await service.db.query('delete from users where account_id = $1', [accountId]);
    expect((await create()).user_id).toBeNull();
  });

  it('matches a buyer to the client as the clients are now', async () => {
    const buyer = { buyer_name: 'Kept Buyer Sp. z o.o.', buyer_tax_no: '526-000-12-46' };
    const first = await create(buyer);
    expect((await create(buyer)).client_id).toBe(first.client_id);
    // The client's tax number changes: the buyer no longer matches it, and gets a client of its own.
    expect((await http.put(`/clients/${first.client_id}.json`, { client: { tax_no: '9999999999', name: 'Someone else' } })).status).toBe(200);
    const second = await create(buyer);
    expect(second.client_id).not.toBe(first.client_id);
    expect((await create(buyer)).client_id).toBe(second.client_id);
    // The first client takes the tax number back, written straight to the database: being older, it is the match again.
    await service.db.query(`update clients set data = jsonb_set(data, '{tax_no}', '"5260001246"') where id = $1`, [first.client_id]);
    expect((await create(buyer)).client_id).toBe(first.client_id);
    expect((await http.delete(`/clients/${first.client_id}.json`)).status).toBe(200);
    expect((await create(buyer)).client_id).toBe(second.client_id);
  });

  it('queues a delivery once a webhook listens, and none once it stops', async () => {
    const deliveries = async () => Number((await service.db.query<{ n: number }>('select count(*)::int as n from webhook_deliveries where account_id = $1', [accountId]))[0]!.n);
    await create();
    const before = await deliveries();
    await create();
    expect(await deliveries()).toBe(before);
    const hook = await http.post('/webhooks.json', { webhook: { kind: 'invoice:create', url: subscriber.url('/kept'), api_token: 'kept' } });
    expect(hook.status).toBe(201);
    const made = await create();
    expect(await deliveries()).toBe(before + 1);
    await subscriber.waitFor((entry) => entry.path === '/kept' && entry.json.deal.id === made.id);
    await service.db.query(`update webhooks set data = data || '{"active": false}' where id = $1`, [hook.body.id]);
    await create();
    expect(await deliveries()).toBe(before + 1);
  });
});
