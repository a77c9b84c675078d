import { openDatabase } from '../src/service/db.js';
import { migrate } from '../src/service/migrations.js';
const db = await openDatabase({});
await migrate(db);
let n = 0;
await db.listen('invoicekit_accounts', () => n++, () => console.log('lost'));
await db.query(`insert into accounts (prefix, api_token) values ($1, $2)`, ['a', 't']);
console.log(await db.query(`select id, prefix, created_at from accounts where api_token = $1`, ['t']));
await db.query(`update accounts set name = $1 where prefix = $2`, ['x', 'a']);
await new Promise((r) => setTimeout(r, 50));
console.log('notified after plain update', n);
await db.transaction(async (tx) => { await tx.query(`update accounts set name = $1 where prefix = $2`, ['y', 'a']); });
await new Promise((r) => setTimeout(r, 50));
console.log('notified after tx update', n);
try { await db.query(`select 1/0 as x where $1::int = 1`, [1]); } catch (e) { console.log('error ok', String(e)); }
console.log(await db.query(`select $1::text as t, $2::numeric as n, $3::jsonb as j, $4::int[] as a`, ['x', '1.50', JSON.stringify({a: 1}), [1,2]]));
console.log(await db.query(`select count(*) from accounts`));
await db.close();
