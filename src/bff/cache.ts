/**
 * Short-lived answers the BFF may reuse (a product looked up by its token). The in-memory store suits
 * one process; several BFF processes share one (Redis, PostgreSQL) so a change is seen by all at once
 * and the service is asked once per entry, not once per process.
 */
export interface CacheStore {
  /** The value set under `key`, or `undefined` when there is none or it has expired. */
  get<T>(key: string): Promise<T | undefined>;
  /** Keeps `value` (anything JSON can hold, `null` included) for `ttlMs`. */
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

export class MemoryCacheStore implements CacheStore {
  readonly #entries = new Map<string, { value: unknown; expiresAt: number }>();
  readonly #maxEntries: number;

  constructor(options: { maxEntries?: number } = {}) {
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  async get<T>(key: string): Promise<T | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, expiresAt: Date.now() + ttlMs });
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }
}
