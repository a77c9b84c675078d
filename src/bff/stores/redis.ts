import type { CacheStore } from '../cache.js';
import type { IdempotencyClaim, IdempotencyStore, StoredAnswer } from '../idempotency.js';
import type { RateLimitHit, RateLimitStore } from '../rate-limit.js';
import { pollSettled, SHARED_STORE_DEFAULTS, type BffStores, type SharedStoreOptions } from './types.js';

/** The one thing the stores ask of a Redis client: node-redis's `sendCommand` (ioredis: wrap `call`). */
export interface RedisCommands {
  sendCommand(args: string[]): Promise<unknown>;
}

export interface RedisStoreOptions extends SharedStoreOptions {
  /** `redis://[user:password@]host:6379[/db]` or `rediss://…`; the stores open and close the connection. */
  url?: string;
  /** A connected client you manage yourself, instead of `url`. */
  client?: RedisCommands;
  /** Prefix of every key, so several BFFs (or other apps) can share one Redis. Default `invoicekit:bff:`. */
  keyPrefix?: string;
  /** Connection errors after start; Redis reconnects by itself. Default: none. */
  onError?: (error: unknown) => void;
}

// Atomic claim: the key's current value, or nothing when this call took it (with a lock that expires).
const CLAIM = `local v = redis.call('GET', KEYS[1])
if v then return v end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;
// Replaces the value only while it is still the claim this process made.
const COMPLETE = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end
return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;
// Fixed window: the first hit of a window sets its expiry; every hit gets the count and time left.
const HIT = `local c = redis.call('INCR', KEYS[1])
local t = redis.call('PTTL', KEYS[1])
if t < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) t = tonumber(ARGV[1]) end
return {c, t}`;

interface Held {
  f: string;
  /** The owner's claim id while in flight. */
  o?: string;
  a?: StoredAnswer;
}

/**
 * Idempotency keys, rate limits and the cache in Redis (node-redis), shared by every BFF process that
 * points at the same server. Every read-modify-write runs as one Lua script, so two processes can
 * never both claim a key or both miss a hit.
 */
export async function redisStores(options: RedisStoreOptions): Promise<BffStores> {
  const settings = { ...SHARED_STORE_DEFAULTS, ...options };
  const prefix = options.keyPrefix ?? 'invoicekit:bff:';
  let redis: RedisCommands;
  let close = async () => undefined as void;
  if (options.client) redis = options.client;
  else {
    if (!options.url) throw new TypeError('redisStores needs `url` or `client`.');
    const { createClient } = await importRedis();
    // Commands fail at once while Redis is unreachable instead of queueing: requests must not hang.
    const client = createClient({ url: options.url, disableOfflineQueue: true });
    client.on('error', (error: unknown) => options.onError?.(error));
    await client.connect();
    redis = { sendCommand: (args) => client.sendCommand(args) };
    close = async () => {
      await client.close();
    };
  }
  const run = (script: string, key: string, ...args: string[]) => redis.sendCommand(['EVAL', script, '1', key, ...args]);
  const claims = new Map<string, string>();

  const idempotency: IdempotencyStore = {
    async claim(key, fingerprint): Promise<IdempotencyClaim> {
      const id = `idem:${key}`;
      const mine = JSON.stringify({ f: fingerprint, o: crypto.randomUUID() } satisfies Held);
      const existing = await run(CLAIM, prefix + id, mine, String(settings.idempotencyLockMs));
      if (existing === null || existing === undefined) {
        claims.set(key, mine);
        return { state: 'claimed' };
      }
      const held = JSON.parse(String(existing)) as Held;
      if (held.a) return { state: 'done', fingerprint: held.f, answer: held.a };
      const settled = pollSettled<StoredAnswer>(
        async () => {
          const now = await redis.sendCommand(['GET', prefix + id]);
          if (now === null || now === undefined) return { gone: true };
          const value = JSON.parse(String(now)) as Held;
          return value.a ? { answer: value.a } : value.o !== held.o ? { gone: true } : {};
        },
        settings.pollMs,
        settings.idempotencyLockMs,
      );
      return { state: 'in-flight', fingerprint: held.f, settled };
    },
    async complete(key, answer) {
      const mine = claims.get(key);
      claims.delete(key);
      if (!mine) return;
      const done = JSON.stringify({ f: (JSON.parse(mine) as Held).f, a: answer } satisfies Held);
      await run(COMPLETE, `${prefix}idem:${key}`, mine, done, String(settings.idempotencyRetentionMs));
    },
    async release(key) {
      const mine = claims.get(key);
      claims.delete(key);
      if (mine) await run(RELEASE, `${prefix}idem:${key}`, mine);
    },
  };

  const rateLimit: RateLimitStore = {
    async hit(key, windowMs): Promise<RateLimitHit> {
      const [count, ttl] = (await run(HIT, `${prefix}rate:${key}`, String(Math.max(1, Math.round(windowMs))))) as [number, number];
      return { count: Number(count), resetAt: Date.now() + Number(ttl) };
    },
  };

  const cache: CacheStore = {
    async get<T>(key: string) {
      const value = await redis.sendCommand(['GET', `${prefix}cache:${key}`]);
      return value === null || value === undefined ? undefined : (JSON.parse(String(value)) as T);
    },
    async set(key, value, ttlMs) {
      if (ttlMs <= 0) return;
      await redis.sendCommand(['SET', `${prefix}cache:${key}`, JSON.stringify(value), 'PX', String(Math.round(ttlMs))]);
    },
    async delete(key) {
      await redis.sendCommand(['DEL', `${prefix}cache:${key}`]);
    },
  };

  return {
    kind: 'redis',
    idempotency,
    rateLimit,
    cache,
    async ping() {
      const answer = await redis.sendCommand(['PING']);
      if (answer !== 'PONG') throw new Error(`Redis answered ${String(answer)} to PING`);
    },
    close,
  };
}

async function importRedis(): Promise<typeof import('@redis/client')> {
  try {
    return await import('@redis/client');
  } catch (error) {
    throw new Error('The Redis stores need the node-redis client: npm install @redis/client', { cause: error });
  }
}
