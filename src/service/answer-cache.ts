import { BoundedMap } from '../server-kit/bounded-map.js';
import type { Database } from './db.js';

/**
 * Presented answers kept while the database has not changed: an answer is kept only if the
 * database's write count stood still while it was read, and used only while the count still stands
 * there. Any write, to any table, made or merely begun since, retires every kept answer, so no
 * answer is ever older than the last write. Only databases that count their writes (PGlite, whose
 * folder one process owns) keep anything; on PostgreSQL other processes write too, and every
 * request reads.
 */
export class AnswerCache {
  readonly #db: Database & { writeCount(): number };
  readonly #entries = new BoundedMap<string, unknown>();
  #count = -1;

  constructor(db: Database & { writeCount(): number }) {
    this.#db = db;
  }

  /** The kept answer for `key`, or the one `read` gives (kept if nothing was written meanwhile). */
  async get<T>(key: string, read: () => Promise<T>): Promise<T> {
    const count = this.#db.writeCount();
    if (count !== this.#count) {
      // Something was written: nothing kept before it may be used again.
      this.#entries.clear();
      this.#count = count;
    }
    if (this.#entries.has(key)) return this.#entries.get(key) as T;
    const value = await read();
    if (this.#db.writeCount() === count) {
      this.#entries.set(key, value);
    }
    return value;
  }
}

const caches = new WeakMap<Database, AnswerCache | null>();

/** The cache of a database, or undefined where answers cannot be kept safely. */
export function answerCacheOf(db: Database): AnswerCache | undefined {
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = db.writeCount ? new AnswerCache(db as Database & { writeCount(): number }) : null;
    caches.set(db, cache);
  }
  return cache ?? undefined;
}
