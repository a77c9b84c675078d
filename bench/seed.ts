import type { Database } from '../src/service/db.js';
import { newClientData } from '../src/service/invoicing/clients.js';
import { insertRow } from '../src/service/store.js';

/**
 * Many invoices at once for the benchmark's customers, written in one statement each: copies of a
 * seeded invoice (positions and all) with their own number, token, client and dates. Going through
 * the HTTP route would take minutes for 10,000.
 */
export interface BulkRequest {
  /** A new client gets the invoices; its external id lets the BFF's tests of the same kind find it. */
  clientName: string;
  externalId: string;
  count: number;
  /** `spread`: ten a day going back from today; `today`: all on today's date. */
  dates: 'spread' | 'today';
}

export async function bulkInvoices(db: Database, request: BulkRequest): Promise<{ clientId: number; accountId: number }> {
  return db.transaction(async (tx) => {
    const [account] = await tx.query<{ id: number }>(`select id from accounts where prefix = 'demo'`);
    const client = await insertRow(tx, 'clients', account!.id, {
      ...newClientData({ name: request.clientName, email: `${request.externalId}@customer.example`, city: 'Kraków', country: 'PL' }),
      external_id: request.externalId,
    });
    const day = request.dates === 'spread' ? `(g / 10)` : '0';
    await tx.query(
      `insert into invoices (account_id, data)
       select $1, t.data || jsonb_build_object(
           'number', $3 || '-' || g || '/01/2020',
           'token', md5($3 || ':' || g),
           'client_id', $2::int,
           'buyer_name', $4::text,
           'oid', null,
           'issue_date', to_char(current_date - ${day}, 'YYYY-MM-DD'),
           'sell_date', to_char(current_date - ${day}, 'YYYY-MM-DD'),
           'payment_to', to_char(current_date - ${day} + 14, 'YYYY-MM-DD'),
           'status', (array['issued','sent','paid','partial'])[1 + g % 4],
           'paid', case when g % 4 = 2 then t.data->'price_gross' else to_jsonb('0.0'::text) end)
         from generate_series(1, $5::int) g,
              (select data from invoices where account_id = $1 order by id limit 1) t`,
      [account!.id, client.id, `B${client.id}`, request.clientName, request.count],
    );
    return { clientId: client.id, accountId: account!.id };
  });
}
