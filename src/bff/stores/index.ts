import { memoryStores } from './memory.js';
import type { BffStores, SharedStoreOptions } from './types.js';

export { memoryStores } from './memory.js';
export { redisStores, type RedisCommands, type RedisStoreOptions } from './redis.js';
export { postgresStores, type PostgresQueryable, type PostgresStoreOptions } from './postgres.js';
export type { BffStores, SharedStoreOptions } from './types.js';

/**
 * Picks the stores from the environment, as the `invoicekit bff` command does: `REDIS_URL` selects
 * Redis, else `DATABASE_URL` selects PostgreSQL, else memory (one process only).
 */
export async function storesFromEnv(
  env: Record<string, string | undefined> = process.env,
  options: SharedStoreOptions & { onError?: (error: unknown) => void } = {},
): Promise<BffStores> {
  if (env['REDIS_URL']) {
    const { redisStores } = await import('./redis.js');
    return redisStores({ ...options, url: env['REDIS_URL'] });
  }
  if (env['DATABASE_URL']) {
    const { postgresStores } = await import('./postgres.js');
    return postgresStores({ ...options, url: env['DATABASE_URL'] });
  }
  return memoryStores();
}
