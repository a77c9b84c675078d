import { decimal, toWire } from '../../kernel/money.js';
import { keptRead, type Sql } from '../db.js';
import type { StoredRow } from '../store.js';

/** The clients table: a client record's stored shape, and the reads other parts make of it. */

export interface ClientData {
  name: string;
  tax_no: string | null;
  bank: string | null;
  bank_account: string | null;
  city: string | null;
  country: string | null;
  email: string | null;
  person: string | null;
  post_code: string | null;
  phone: string | null;
  street: string | null;
  first_name: string | null;
  last_name: string | null;
  company: boolean;
  kind: string;
  external_id: string | null;
  note: string | null;
  token: string;
  /**
   * True once the customer has created or changed this record themselves (through a portal, the
   * BFF sends `self_service: true`): its name, tax number and e-mail are then the customer's claim,
   * so no invoice ever finds it by them; only an explicit `client_id` attaches one.
   */
  self_service?: boolean;
}

/** Income invoices that ask to be paid (orders and cash documents do not). */
const UNBILLED_KINDS = ['proforma', 'estimate', 'client_order', 'kp', 'kw'];

/** Each client's balance: paid less invoiced over its income invoices that are not cancelled. */
export async function balances(sql: Sql, accountId: number, clientIds: number[]): Promise<Map<number, string>> {
  if (clientIds.length === 0) return new Map();
  const rows = await sql.query<{ client_id: number; balance: string }>(
    `select (data->>'client_id')::integer as client_id,
            sum((data->>'paid')::numeric - (data->>'price_gross')::numeric)::text as balance
       from invoices
      where account_id = $1 and (data->>'client_id')::integer = any($2::int[])
        and coalesce((data->>'income')::boolean, true) and not coalesce((data->>'cancelled')::boolean, false)
        and not (data->>'kind' = any($3::text[]))
      group by 1`,
    [accountId, clientIds, UNBILLED_KINDS],
  );
  return new Map(rows.map((r) => [r.client_id, toWire(decimal(r.balance))]));
}

/**
 * An existing client that is the buyer: same tax number, else same e-mail, else same name; only
 * among records the account keeps itself (not `self_service` ones). Used only for the account's own
 * API calls, never for an anonymous checkout (docs/decisions/buyer-matching.md).
 */
export async function matchClient(
  sql: Sql,
  accountId: number,
  buyer: { name?: string | null; tax_no?: string | null; email?: string | null },
): Promise<StoredRow<ClientData> | undefined> {
  const tries: [string, string | null | undefined][] = [
    [`regexp_replace(data->>'tax_no', '[^0-9A-Za-z]', '', 'g') = regexp_replace($2, '[^0-9A-Za-z]', '', 'g')`, buyer.tax_no],
    [`lower(data->>'email') = lower($2)`, buyer.email],
    [`lower(data->>'name') = lower($2)`, buyer.name],
  ];
  const given = tries.map(([, value]) => value?.trim() || null);
  // The same buyer is invoiced again and again: the answer is kept until a client is written.
  return keptRead(sql, ['clients'], `buyer of ${accountId} ${JSON.stringify(given)}`, async () => {
    for (const [index, [condition]] of tries.entries()) {
      if (!given[index]) continue;
      const rows = await sql.query<StoredRow<ClientData>>(
        `select id, data, created_at, updated_at from clients
          where account_id = $1 and ${condition} and coalesce(data->>'self_service', 'false') <> 'true' order by id limit 1`,
        [accountId, given[index]],
      );
      if (rows[0]) return rows[0];
    }
    return undefined;
  });
}
