import { MemoryCacheStore } from '../cache.js';
import { MemoryIdempotencyStore } from '../idempotency.js';
import { MemoryRateLimitStore } from '../rate-limit.js';
import type { BffStores } from './types.js';

/** The default: everything in this process's memory. Right for one BFF process, wrong for two. */
export function memoryStores(): BffStores {
  return {
    kind: 'memory',
    idempotency: new MemoryIdempotencyStore(),
    rateLimit: new MemoryRateLimitStore(),
    cache: new MemoryCacheStore(),
    ping: async () => undefined,
    close: async () => undefined,
  };
}
