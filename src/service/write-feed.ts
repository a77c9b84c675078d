import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Hono, MiddlewareHandler } from 'hono';
import type { Database } from './db.js';
import { ApiError, type ServiceEnv } from './http.js';

/** How often an idle feed says it is alive: proxies keep it open, and a follower can tell a dead one. */
const WRITE_FEED_PING_MS = 15_000;
/** Feeds held at once by one process; a BFF process holds one. */
export const MAX_FEEDS = 64;
/** Feeds one account may hold at once, so that no account can take them all. */
export const MAX_FEEDS_PER_ACCOUNT = 4;

/** The account whose request is running, for the writes it makes. */
const writingAccount = new AsyncLocalStorage<number>();

/**
 * Runs the rest of an account's request as that account's, so that its writes move its own feed's
 * count only. Mounted after the account is known (`requireAccount`).
 */
export const writesOfAccount: MiddlewareHandler<ServiceEnv> = (c, next) => writingAccount.run(c.get('account').id, next);

/**
 * Write counts per account: a write made in an account's request moves that account's count; one
 * made elsewhere (a background job, a public route, a login) moves every account's, since it may
 * have changed any of them. An account's count is its own writes plus those.
 */
class AccountWriteCounts {
  #shared = 0;
  readonly #own = new Map<number, number>();
  readonly #listeners = new Map<number, Set<() => void>>();

  constructor(db: Database) {
    db.onWrite(() => {
      const account = writingAccount.getStore();
      if (account === undefined) {
        this.#shared += 1;
        for (const listeners of this.#listeners.values()) for (const listener of listeners) listener();
        return;
      }
      this.#own.set(account, (this.#own.get(account) ?? 0) + 1);
      for (const listener of this.#listeners.get(account) ?? []) listener();
    });
  }

  count(account: number): number {
    return this.#shared + (this.#own.get(account) ?? 0);
  }

  /** Calls `listener` on every write that moves `account`'s count; returns what stops it. */
  follow(account: number, listener: () => void): () => void {
    let listeners = this.#listeners.get(account);
    if (!listeners) this.#listeners.set(account, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#listeners.delete(account);
    };
  }

  /** Feeds the account holds now. */
  held(account: number): number {
    return this.#listeners.get(account)?.size ?? 0;
  }
}

/**
 * `GET /changes`: the account's write count as a stream of server-sent events, for a BFF in
 * another process to know, without asking, that nothing was written since it read a page. Only on
 * PGlite, where this process makes every write and counts them (`Database.writeCount`); on
 * PostgreSQL, or called in-process without a socket, it is 404 and a BFF asks with entity tags.
 *
 * The count is the account's (`AccountWriteCounts`): another tenant's requests never move it, so a
 * feed tells no account when, or how much, another one writes. An account holds at most
 * `MAX_FEEDS_PER_ACCOUNT` feeds, the process `MAX_FEEDS`.
 *
 * Each event is `data: <epoch>.<count>`: the epoch is new each time the database is opened, so a
 * restarted service never repeats a count a follower holds. The count is written to the socket in
 * the same turn as the write moves it, before the write's own answer can leave, so a follower on the
 * same host has it in its socket before anyone who was told of the write can ask it anything
 * (docs/decisions/conditional-reads.md).
 */
export function mountWriteFeed(changes: Hono<ServiceEnv>, db: Database): void {
  const epoch = randomBytes(6).toString('base64url');
  const counts = db.writeCount ? new AccountWriteCounts(db) : undefined;
  let open = 0;
  changes.get('/', (c) => {
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (!counts || !outgoing) throw new ApiError(404, 'Not found');
    const account = c.get('account').id;
    const headers = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
    // A HEAD asks only whether there is a feed: it has no body to stream, and holds no place.
    if (c.req.method === 'HEAD') return new Response(null, { headers });
    if (counts.held(account) >= MAX_FEEDS_PER_ACCOUNT) {
      throw new ApiError(429, `The account holds ${MAX_FEEDS_PER_ACCOUNT} change feeds already, the most it may`, undefined, { 'retry-after': '5' });
    }
    if (open >= MAX_FEEDS) throw new ApiError(503, 'Too many change feeds are open', undefined, { 'retry-after': '5' });
    open += 1;
    outgoing.writeHead(200, headers);
    let sent = -1;
    const send = () => {
      const count = counts.count(account);
      if (count === sent) return;
      sent = count;
      outgoing.write(`data: ${epoch}.${count}\n\n`);
      // Node corks a response's socket until the next tick; the write's own answer may leave before
      // that, so the count goes to the socket now.
      outgoing.socket?.uncork();
    };
    send();
    const stop = counts.follow(account, send);
    const ping = setInterval(() => outgoing.write(': ping\n\n'), WRITE_FEED_PING_MS);
    ping.unref();
    outgoing.once('close', () => {
      open -= 1;
      stop();
      clearInterval(ping);
    });
    return alreadySent();
  });
}

/**
 * Tells the Node adapter that the answer went out by other means, so it writes nothing more. Made per
 * request and read in full (`body`): once a server is served, the global `Response` is the adapter's
 * light one, which it would write as an empty answer without looking at the sign, and its own
 * `RESPONSE_ALREADY_SENT` is such a one when first imported after that.
 */
function alreadySent(): Response {
  const response = new Response(null, { headers: RESPONSE_ALREADY_SENT.headers });
  void response.body;
  return response;
}
