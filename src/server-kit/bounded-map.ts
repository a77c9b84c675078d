/**
 * How many entries each of the service's kept-values stores holds (per database): kept reads, kept
 * answers and kept accounts alike. The oldest entry makes room for a new one.
 */
export const KEPT_ENTRIES = 1000;

/**
 * A map of at most `limit` entries: setting a key drops the oldest entry when the map is full, and
 * setting a key again makes it the newest. The one eviction rule of the service's kept values and the
 * BFF's held pages.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #limit: number;

  constructor(limit = KEPT_ENTRIES) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#entries.size;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#limit) this.#entries.delete(this.#entries.keys().next().value as K);
    this.#entries.set(key, value);
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
