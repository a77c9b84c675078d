/**
 * Short-lived answers of the service the BFF keeps (a product looked up by token, a customer's
 * list). The in-memory store suits one process; several BFF processes share a store (Redis SET with
 * PX, say) through the same three methods. Values are plain JSON.
 */
export interface CacheStore {
  get(key: string): Promise<unknown>;
  /** Keeps `value` for `ttlMs`; a `ttlMs` of 0 or less keeps nothing. */
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface MemoryCacheStoreOptions {
  /** Upper bound on kept entries; the oldest go first. Default 10,000. */
  maxEntries?: number;
  /** The clock windows and expiries are measured by, in ms since the epoch; tests move it. Default `Date.now`. */
  now?: () => number;
}

export class MemoryCacheStore implements CacheStore {
  readonly #entries = new Map<string, { value: unknown; expiresAt: number }>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryCacheStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  async get(key: string): Promise<unknown> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }
}
