import { timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { addUserInput, createAccountInput, loginInput } from '../api/schemas/account.js';
import { accountByToken, createAccount, joinedAccount } from './accounts.js';
import { checkLogin } from './auth.js';
import { linkAccount } from './data/account-links.js';
import { insertUser, loginTaken, userByLogin, type UserRow } from './data/users.js';
import type { Sql } from './db.js';
import { type Account, invalid, respond, type ServiceContext, type ServiceEnv, unauthorized, validate } from './http.js';
import { hashPassword } from './passwords.js';
import { timestampText } from './store.js';

/**
 * Integration operations of spec §4.8 on `{app_url}` (the same server here): add a user, log in,
 * create an account (with owner and company data), read the account. Each carries the
 * provider's `integration_token`; a wrong or missing one is the reference's 401.
 */
function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || expected === '') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The integration token, from the same places in the same order as an api_token: query, then body. */
function requireIntegrationToken(c: ServiceContext): void {
  const body = c.get('body');
  const given = c.req.query('integration_token') ?? (Object.hasOwn(body, 'integration_token') ? body.integration_token : undefined);
  if (!sameSecret(given, c.get('config').integrationToken)) throw unauthorized();
}

async function ensureFreeLogin(tx: Sql, login: string, email: string): Promise<void> {
  if (await loginTaken(tx, login, email)) throw invalid({ 'user.login': ['has already been taken'] });
}

async function addUser(
  tx: Sql,
  account: Account,
  user: { login?: string | null; email: string; password: string; first_name?: string | null; last_name?: string | null },
): Promise<UserRow> {
  const login = user.login?.trim() || user.email;
  await ensureFreeLogin(tx, login, user.email);
  return insertUser(tx, account.id, {
    login,
    email: user.email,
    passwordHash: await hashPassword(user.password),
    data: { first_name: user.first_name ?? null, last_name: user.last_name ?? null },
  });
}

/** A prefix made from an e-mail's local part: `anna.nowak@…` → `anna-nowak`. */
function prefixFromEmail(email: string): string {
  const local = email.split('@')[0]!.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return local.length >= 2 ? local.slice(0, 40) : `account-${local || 'new'}`;
}

function presentUser(user: UserRow, account: Account, publicUrl: string) {
  return {
    id: user.id,
    login: user.login,
    email: user.email,
    first_name: user.data.first_name ?? null,
    last_name: user.data.last_name ?? null,
    prefix: account.prefix,
    url: publicUrl,
    created_at: timestampText(user.created_at),
  };
}

export function mountIntegrations(groups: { users: Hono<ServiceEnv>; login: Hono<ServiceEnv>; account: Hono<ServiceEnv> }): void {
  const publicUrl = (c: ServiceContext) => c.get('config').publicUrl;

  groups.users.post('/', async (c) => {
    requireIntegrationToken(c);
    const input = validate(addUserInput, c.get('body'));
    const body = c.get('body');
    const apiToken = Object.hasOwn(body, 'api_token') ? body.api_token : undefined;
    const { user, account } = await c.get('db').transaction(async (tx) => {
      // With an api_token the user joins that account; without one the user gets an account of their own.
      let owner: Account | undefined;
      if (typeof apiToken === 'string' && apiToken) {
        owner = await accountByToken(tx, apiToken);
        if (!owner) throw unauthorized();
      } else {
        await ensureFreeLogin(tx, input.user.login?.trim() || input.user.email, input.user.email);
        owner = await createAccount(tx, { prefix: prefixFromEmail(input.user.email) });
      }
      return { user: await addUser(tx, owner, input.user), account: owner };
    });
    return respond(c, presentUser(user, account, publicUrl(c)), { status: 201, root: 'user' });
  });

  groups.login.post('/', async (c) => {
    requireIntegrationToken(c);
    const input = validate(loginInput, c.get('body'));
    // The same 401, after the same work, for an unknown login and a wrong password: nothing tells
    // which one exists. Failures count against the login and the address.
    const user = await checkLogin(c, input.login, input.password, (login) => userByLogin(c.get('db'), login));
    if (!user) throw unauthorized();
    const account = joinedAccount(user);
    return respond(
      c,
      {
        login: user.login,
        email: user.email,
        prefix: account.prefix,
        url: publicUrl(c),
        first_name: user.data.first_name ?? null,
        last_name: user.data.last_name ?? null,
        api_token: account.api_token,
      },
      { root: 'user' },
    );
  });

  groups.account.post('/', async (c) => {
    requireIntegrationToken(c);
    const input = validate(createAccountInput, c.get('body'));
    if (input.api_token && !(await accountByToken(c.get('db'), input.api_token))) throw unauthorized();
    const { account, user } = await c.get('db').transaction(async (tx) => {
      if (input.user) await ensureFreeLogin(tx, input.user.login?.trim() || input.user.email, input.user.email);
      const created = await createAccount(tx, {
        prefix: input.account.prefix,
        company: input.company ? { ...input.company, email: input.user?.email ?? null } : { name: input.account.prefix },
      });
      // An account a partner creates with its own api_token stays linked to it until unlinked.
      const partner = input.api_token ? await accountByToken(tx, input.api_token) : undefined;
      if (partner) await linkAccount(tx, partner.id, created.id);
      return { account: created, user: input.user ? await addUser(tx, created, input.user) : undefined };
    });
    return respond(
      c,
      { prefix: account.prefix, api_token: account.api_token, url: publicUrl(c), login: user?.login ?? null, email: user?.email ?? null },
      { status: 201, root: 'account' },
    );
  });

  groups.account.get('/', async (c) => {
    requireIntegrationToken(c);
    const token = c.req.query('api_token');
    const account = token ? await accountByToken(c.get('db'), token) : undefined;
    if (!account) throw unauthorized();
    return respond(
      c,
      { id: account.id, prefix: account.prefix, name: account.name, url: publicUrl(c), created_at: timestampText(account.created_at) },
      { root: 'account' },
    );
  });
}
