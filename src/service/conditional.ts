import { createHmac, randomBytes } from 'node:crypto';
import { answerCacheOf } from './answer-cache.js';
import type { Database } from './db.js';
import type { ServiceContext } from './context.js';

/** Signs validators: a fresh key per database opened, so a validator never outlives the process that gave it. */
const signingKeys = new WeakMap<Database, Buffer>();

function keyOf(db: Database): Buffer {
  let key = signingKeys.get(db);
  if (!key) {
    key = randomBytes(32);
    signingKeys.set(db, key);
  }
  return key;
}

/** The validator of the answer for `key` while the database's write count stands at `count`. */
function validator(db: Database, count: number, key: string, format: string): string {
  const mac = createHmac('sha256', keyOf(db)).update(`${count}\n${format}\n${key}`).digest('base64url');
  return `W/"${mac.slice(0, 32)}"`;
}

/**
 * Whether an `If-None-Match` header names `tag`, compared weakly. `*` is not taken as a match: it
 * would answer 304 before the read could tell whether the record exists at all.
 */
function named(header: string, tag: string): boolean {
  const opaque = tag.replace(/^W\//, '');
  return header.split(',').some((each) => each.trim().replace(/^W\//, '') === opaque);
}

/**
 * Answers a read from the kept answers (`answer-cache.ts`) with an entity tag, and a request whose
 * `If-None-Match` names the current tag with `304 Not Modified` and no body: the answer it holds
 * is still the one this request would get. A tag stands for the database's write count when the
 * answer was made (read while no write began), the answer's key (account, date and URL) and its
 * format, signed with a key of this process: so it matches only while nothing has been written
 * since, and never after a restart. Where answers are not kept (PostgreSQL, where other processes
 * write too) there is no tag and every request is answered whole.
 */
export async function keptAnswer<T>(
  c: ServiceContext,
  key: string,
  read: () => Promise<T>,
  present: (value: T) => Response,
): Promise<Response> {
  const db = c.get('db');
  const kept = answerCacheOf(db);
  if (!kept || !db.writeCount) return present(await read());
  const format = c.get('format');
  const asked = c.req.header('if-none-match');
  const before = db.writeCount();
  const tag = validator(db, before, key, format);
  if (asked && named(asked, tag)) return c.body(null, 304, { etag: tag, 'cache-control': 'private, no-cache' });
  const response = present(await kept.get(key, read));
  // Only an answer made while nothing was written is the answer of one state of the database.
  if (db.writeCount() === before && response.status === 200) {
    response.headers.set('etag', tag);
    if (!response.headers.has('cache-control')) response.headers.set('cache-control', 'private, no-cache');
  }
  return response;
}
