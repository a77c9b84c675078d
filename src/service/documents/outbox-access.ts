import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Sql } from '../db.js';
import type { Account } from '../account.js';
import { openAccountToken } from '../secrets/stored.js';

/** How long a link made by `POST /outbox/links` opens the outbox. */
export const OUTBOX_LINK_TTL_SECONDS = 15 * 60;
/** How long the browser that opened such a link keeps reading the outbox. */
export const OUTBOX_SESSION_TTL_SECONDS = 8 * 60 * 60;
const COOKIE = 'invoicekit_outbox';

/**
 * Signed, expiring keys to one account's outbox: `<account id>.<expiry>.<HMAC>`. The HMAC covers
 * the account's current api_token too, so replacing the token ends every link and session made
 * with the old one. Links and sessions are signed for different purposes and never stand in for
 * each other.
 */
export interface OutboxAccess {
  linkFor(account: Account): Promise<string>;
  sessionFor(account: Account): Promise<string>;
  verifyLink(sql: Sql, key: string): Promise<Account | undefined>;
  verifySession(sql: Sql, cookieHeader: string | undefined): Promise<Account | undefined>;
}

type Purpose = 'outbox-link' | 'outbox-session';

export function createOutboxAccess(secret: string): OutboxAccess {
  const mac = (purpose: Purpose, accountId: number, expires: number, apiToken: string) =>
    createHmac('sha256', secret).update(`${purpose}\n${accountId}\n${expires}\n${apiToken}`).digest('base64url');

  const sign = (purpose: Purpose, account: Account, ttl: number) => {
    const expires = Math.floor(Date.now() / 1000) + ttl;
    return `${account.id}.${expires}.${mac(purpose, account.id, expires, account.api_token)}`;
  };

  async function verify(sql: Sql, purpose: Purpose, key: string): Promise<Account | undefined> {
    const match = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(key);
    if (!match) return undefined;
    const [, id, expires, given] = match;
    if (Number(expires) < Date.now() / 1000) return undefined;
    const rows = await sql.query<Account>(`select id, prefix, api_token, name, created_at from accounts where id = $1`, [Number(id)]);
    const account = rows[0] && openAccountToken(rows[0]);
    if (!account) return undefined;
    const expected = Buffer.from(mac(purpose, account.id, Number(expires), account.api_token));
    const actual = Buffer.from(given!);
    return expected.length === actual.length && timingSafeEqual(expected, actual) ? account : undefined;
  }

  return {
    linkFor: async (account) => sign('outbox-link', account, OUTBOX_LINK_TTL_SECONDS),
    sessionFor: async (account) => sign('outbox-session', account, OUTBOX_SESSION_TTL_SECONDS),
    verifyLink: (sql, key) => verify(sql, 'outbox-link', key),
    async verifySession(sql, cookieHeader) {
      const value = (cookieHeader ?? '')
        .split(';')
        .map((part) => part.trim())
        .find((part) => part.startsWith(`${COOKIE}=`))
        ?.slice(COOKIE.length + 1);
      return value ? verify(sql, 'outbox-session', value) : undefined;
    },
  };
}

/** The cookie that keeps an outbox session: this path only, never readable by scripts. */
export function outboxSessionCookie(value: string, secure: boolean): string {
  return `${COOKIE}=${value}; Path=/outbox; Max-Age=${OUTBOX_SESSION_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
