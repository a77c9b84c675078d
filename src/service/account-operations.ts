import { timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { accountAddUserInput, accountUnlinkInput } from '../api/schemas/account-operations.js';
import { accountByToken, deleteAccount } from './accounts.js';
import { insertAccountDeletion, pendingAccountDeletion } from './data/account-deletions.js';
import { unlinkAccounts } from './data/account-links.js';
import { mainDepartmentEmail } from './data/departments.js';
import { insertUser, mergeUserData, userByEmailOrLogin, userEmails } from './data/users.js';
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
  const emails = await userEmails(sql, accountId);
  if (emails.length > 0) return emails;
  const email = await mainDepartmentEmail(sql, accountId);
  return email ? [email] : [];
}

export function mountAccountOperations(app: Hono<ServiceEnv>, options: { smtpUrl?: string | undefined } = {}): void {
  const mailer = createMailer(options.smtpUrl);

  app.post('/add_user', async (c) => {
    const account = await requireToken(c);
    const input = validate(accountAddUserInput, c.get('body'));
    if (!sameSecret(c.req.query('integration_token') ?? input.integration_token, c.get('config').integrationToken)) throw unauthorized();
    const user = input.user;
    const result = await c.get('db').transaction(async (tx) => {
      const found = await userByEmailOrLogin(tx, user.email, user.login?.trim() || user.email);
      if (user.invite) {
        if (!found) throw invalid({ 'user.email': ['is not a user of the service: send invite false with a password'] });
        if (found.account_id !== account.id) throw invalid({ 'user.email': ['belongs to another account'] });
        await mergeUserData(tx, found.id, { role: user.role ?? 'member', department_ids: user.department_ids ?? [] });
        return found;
      }
      if (found) throw invalid({ 'user.login': ['has already been taken'] });
      if (!user.password) throw invalid({ 'user.password': ["can't be blank"] });
      return insertUser(tx, account.id, {
        login: user.login?.trim() || user.email,
        email: user.email,
        passwordHash: await hashPassword(user.password),
        data: {
          first_name: user.first_name ?? null,
          last_name: user.last_name ?? null,
          role: user.role ?? 'member',
          department_ids: user.department_ids ?? [],
        },
      });
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
      await insertAccountDeletion(tx, token, account.id, DELETION_TTL_HOURS);
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

  const pendingDeletion = (c: ServiceContext) => pendingAccountDeletion(c.get('db'), c.req.param('token') ?? '');

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
    await deleteAccount(c.get('db'), pending.account_id);
    return c.html(deletionPage('The account was deleted', '<p>All of its data is gone.</p>'));
  });

  app.patch('/unlink', async (c) => {
    const account = await requireToken(c);
    const input = validate(accountUnlinkInput, c.get('body'));
    const prefixes = [...new Set((Array.isArray(input.prefix) ? input.prefix : [input.prefix]).map((p) => p.trim()))];
    const removed = await unlinkAccounts(c.get('db'), account.id, prefixes);
    const unlinked = prefixes.filter((p) => removed.includes(p));
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
