/**
 * Idempotent checkout. A store remembers, per `Idempotency-Key`, the fingerprint of the request
 * body and the answer it got, so a retry gets the same answer and creates no second payment.
 * The in-memory store suits one process; a host running several BFF processes plugs in a shared
 * store (Redis, a database table) through the same three methods.
 */

export interface StoredAnswer {
  status: number;
  body: unknown;
}

export type IdempotencyClaim =
  /** The key is new: the caller owns it and must `complete` or `release` it. */
  | { state: 'claimed' }
  /** Another request holds the key. `settled`, when the store can offer it, resolves with its answer. */
  | { state: 'in-flight'; fingerprint: string; settled?: Promise<StoredAnswer | undefined> }
  | { state: 'done'; fingerprint: string; answer: StoredAnswer };

export interface IdempotencyStore {
  /** Atomically claims `key` for a request whose body hashes to `fingerprint`. */
  claim(key: string, fingerprint: string): Promise<IdempotencyClaim>;
  /** Records the answer for a claimed key, kept for the store's retention time. */
  complete(key: string, answer: StoredAnswer): Promise<void>;
  /** Gives a claimed key back (the attempt failed in a way a retry may fix). */
  release(key: string): Promise<void>;
}

interface Entry {
  fingerprint: string;
  expiresAt: number;
  answer?: StoredAnswer;
  settle?: (answer: StoredAnswer | undefined) => void;
  settled?: Promise<StoredAnswer | undefined>;
}

export interface MemoryIdempotencyStoreOptions {
  /** How long an answer is remembered. Default 24 hours, as payment providers do. */
  retentionMs?: number;
  /** Upper bound on remembered keys; the oldest go first. Default 100,000. */
  maxEntries?: number;
  /** The clock windows and expiries are measured by, in ms since the epoch; tests move it. Default `Date.now`. */
  now?: () => number;
}

export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #retentionMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryIdempotencyStoreOptions = {}) {
    this.#retentionMs = options.retentionMs ?? 24 * 60 * 60 * 1000;
    this.#maxEntries = options.maxEntries ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  async claim(key: string, fingerprint: string): Promise<IdempotencyClaim> {
    const now = this.#now();
    const existing = this.#entries.get(key);
    if (existing && (existing.expiresAt > now || !existing.answer)) {
      if (existing.answer) return { state: 'done', fingerprint: existing.fingerprint, answer: existing.answer };
      return { state: 'in-flight', fingerprint: existing.fingerprint, settled: existing.settled };
    }
    this.#evict(now);
    const entry: Entry = { fingerprint, expiresAt: now + this.#retentionMs };
    entry.settled = new Promise((resolve) => {
      entry.settle = resolve;
    });
    this.#entries.set(key, entry);
    return { state: 'claimed' };
  }

  async complete(key: string, answer: StoredAnswer): Promise<void> {
    const entry = this.#entries.get(key);
    if (!entry) return;
    entry.answer = answer;
    entry.expiresAt = this.#now() + this.#retentionMs;
    entry.settle?.(answer);
    entry.settle = undefined;
    entry.settled = undefined;
  }

  async release(key: string): Promise<void> {
    const entry = this.#entries.get(key);
    if (!entry || entry.answer) return;
    this.#entries.delete(key);
    entry.settle?.(undefined);
  }

  #evict(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size < this.#maxEntries && entry.expiresAt > now) break;
      if (entry.answer || entry.expiresAt <= now) this.#entries.delete(key);
    }
  }
}

/** SHA-256 of a canonical JSON rendering (sorted keys), hex. Uses Web Crypto, so it runs on the edge too. */
export async function fingerprintOf(value: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(value));
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The `Idempotency-Key` the BFF sends the service for `value`: stable, so a retry through any BFF
 * process names the same request, but an HMAC under the BFF's secret, so nobody who lacks the
 * secret can work out (and claim first) the key of someone else's payment.
 */
export async function serviceIdempotencyKey(secret: Uint8Array, purpose: string, value: unknown): Promise<string> {
  const key = await crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${purpose}\n${canonicalJson(value)}`));
  return `bff-${purpose}-${[...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('').slice(0, 48)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
