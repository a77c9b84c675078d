import { timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { accountAddUserInput, accountUnlinkInput } from '../api/schemas/account-operations.js';
import { accountByToken } from './accounts.js';
import type { Sql } from './db.js';
import { createMailer, operatorSender } from './documents/mailer.js';
import { escapeHtml } from './documents/html.js';
import { type Account, invalid, respond, type ServiceContext, type ServiceEnv, unauthorized, validate } from './http.js';
import { hashPassword, randomToken } from './passwords.js';
import { timestampText } from './store.js';
import { toXml } from './xml.js';

/**
 * The account operations of the hosted service: `POST /account/add_user`, `POST /account/delete`
 * (which, as there, only e-mails the owner a link that deletes the account when followed) and
 * `PATCH /account/unlink` (detaching client accounts from the partner account that created them).
 */
const DELETION_TTL_HOURS = 24;

async function requireToken(c: ServiceContext): Promise<Account> {
  const body = c.get('body');
  const token = c.req.query('api_token') ?? (typeof body.api_token === 'string' ? body.api_token : undefined);
  const account = token ? await accountByToken(c.get('db'), token) : undefined;
  if (!account) throw unauthorized();
  return account;
}

function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || expected === '') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function ownerEmails(sql: Sql, accountId: number): Promise<string[]> {
  const rows = await sql.query<{ email: string }>(`select email from users where account_id = $1 order by id`, [accountId]);
  if (rows.length > 0) return rows.map((r) => r.email);
  const departments = await sql.query<{ email: string | null }>(
    `select data->>'email' as email from departments where account_id = $1 order by (data->>'main')::boolean desc nulls last, id limit 1`,
    [accountId],
  );
  return departments[0]?.email ? [departments[0].email] : [];
}

export function mountAccountOperations(app: Hono<ServiceEnv>, options: { smtpUrl?: string | undefined } = {}): void {
  const mailer = createMailer(options.smtpUrl);

  app.post('/add_user', async (c) => {
    const account = await requireToken(c);
    const input = validate(accountAddUserInput, c.get('body'));
    if (!sameSecret(c.req.query('integration_token') ?? input.integration_token, c.get('config').integrationToken)) throw unauthorized();
    const user = input.user;
    const result = await c.get('db').transaction(async (tx) => {
      const existing = await tx.query<{ id: number; account_id: number; login: string; email: string; created_at: Date }>(
        `select id, account_id, login, email, created_at from users where lower(email) = lower($1) or login = $2 limit 1`,
        [user.email, user.login?.trim() || user.email],
      );
      const found = existing[0];
      if (user.invite) {
        if (!found) throw invalid({ 'user.email': ['is not a user of the service: send invite false with a password'] });
        if (found.account_id !== account.id) throw invalid({ 'user.email': ['belongs to another account'] });
        await tx.query(`update users set data = data || $2::jsonb where id = $1`, [
          found.id,
          JSON.stringify({ role: user.role ?? 'member', department_ids: user.department_ids ?? [] }),
        ]);
        return found;
      }
      if (found) throw invalid({ 'user.login': ['has already been taken'] });
      if (!user.password) throw invalid({ 'user.password': ["can't be blank"] });
      const rows = await tx.query<{ id: number; account_id: number; login: string; email: string; created_at: Date }>(
        `insert into users (account_id, login, email, password_hash, data) values ($1, $2, $3, $4, $5)
         returning id, account_id, login, email, created_at`,
        [
          account.id,
          user.login?.trim() || user.email,
          user.email,
          await hashPassword(user.password),
          JSON.stringify({
            first_name: user.first_name ?? null,
            last_name: user.last_name ?? null,
            role: user.role ?? 'member',
            department_ids: user.department_ids ?? [],
          }),
        ],
      );
      return rows[0]!;
    });
    return respond(
      c,
      {
        id: result.id,
        login: result.login,
        email: result.email,
        role: user.role ?? 'member',
        department_ids: user.department_ids ?? [],
        prefix: account.prefix,
        created_at: timestampText(result.created_at),
      },
      { status: 201, root: 'user' },
    );
  });

  app.post('/delete', async (c) => {
    const account = await requireToken(c);
    const token = randomToken(24);
    const link = `${c.get('config').publicUrl}/account/delete/${token}`;
    await c.get('db').transaction(async (tx) => {
      await tx.query(`insert into account_deletions (token, account_id, expires_at) values ($1, $2, now() + make_interval(hours => $3))`, [
        token,
        account.id,
        DELETION_TTL_HOURS,
      ]);
      const to = await ownerEmails(tx, account.id);
      if (to.length === 0) throw invalid({ base: ['the account has no e-mail address to send the confirmation link to'] });
      const text = `Someone asked to delete the invoicing account "${account.prefix}" with all its data.\n\nTo delete it, open this link within ${DELETION_TTL_HOURS} hours and confirm:\n${link}\n\nIf you did not ask for this, ignore this message: nothing changes.`;
      await mailer.send(tx, {
        accountId: account.id,
        invoiceId: null,
        from: operatorSender(mailer, c.get('config').publicUrl),
        replyTo: null,
        to,
        cc: [],
        subject: `Confirm the deletion of the account ${account.prefix}`,
        text,
        html: null,
        attachments: [],
      });
    });
    return respond(c, { code: 'success', message: 'The link to delete the account has been sent' }, { root: 'result' });
  });

  const deletionPage = (title: string, body: string) =>
    `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title><body style="font-family:system-ui;max-width:36rem;margin:3rem auto;padding:0 1rem"><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

  async function pendingDeletion(c: ServiceContext): Promise<{ account_id: number; prefix: string } | undefined> {
    const rows = await c.get('db').query<{ account_id: number; prefix: string }>(
      `select d.account_id, a.prefix from account_deletions d join accounts a on a.id = d.account_id where d.token = $1 and d.expires_at > now()`,
      [c.req.param('token') ?? ''],
    );
    return rows[0];
  }

  app.get('/delete/:token', async (c) => {
    const pending = await pendingDeletion(c);
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
    if (!pending) return c.html(deletionPage('This link is not valid', '<p>It has expired or was already used.</p>'), 404);
    return c.html(
      deletionPage(
        `Delete the account ${pending.prefix}?`,
        `<p>Every invoice, client, product and payment of the account is deleted for good.</p><form method="post"><button type="submit">Delete the account</button></form>`,
      ),
    );
  });

  app.post('/delete/:token', async (c) => {
    const pending = await pendingDeletion(c);
    c.header('x-content-type-options', 'nosniff');
    if (!pending) return c.html(deletionPage('This link is not valid', '<p>It has expired or was already used.</p>'), 404);
    await c.get('db').query(`delete from accounts where id = $1`, [pending.account_id]);
    return c.html(deletionPage('The account was deleted', '<p>All of its data is gone.</p>'));
  });

  app.patch('/unlink', async (c) => {
    const account = await requireToken(c);
    const input = validate(accountUnlinkInput, c.get('body'));
    const prefixes = [...new Set((Array.isArray(input.prefix) ? input.prefix : [input.prefix]).map((p) => p.trim()))];
    const removed = await c.get('db').query<{ prefix: string }>(
      `delete from account_links l using accounts a
        where l.partner_account_id = $1 and l.account_id = a.id and a.prefix = any($2::text[])
       returning a.prefix`,
      [account.id, prefixes],
    );
    const unlinked = prefixes.filter((p) => removed.some((r) => r.prefix === p));
    const notUnlinked = prefixes.filter((p) => !unlinked.includes(p));
    if (unlinked.length === 0) {
      const body = { code: 'error', message: 'No accounts to unlink', result: { not_unlinked: notUnlinked } };
      // The hosted service's error body, with the prefixes it could not unlink.
      if (c.get('format') === 'xml') return c.body(toXml('result', body), 422, { 'content-type': 'application/xml; charset=utf-8' });
      return c.json(body, 422);
    }
    return respond(
      c,
      { code: 'success', message: 'Accounts unlinked', result: { unlinked, ...(notUnlinked.length ? { not_unlinked: notUnlinked } : {}) } },
      { root: 'result' },
    );
  });
}
