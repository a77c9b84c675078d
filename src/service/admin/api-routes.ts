import type { Hono } from 'hono';
import type { ServiceEnv } from '../http.js';
import { mountAttention } from './attention.js';
import { mountConnectionTests } from './connection-tests.js';
import { mountTokenRotation } from './token-rotation.js';

/**
 * The API routes the back office's views need beyond the interface's seed, each an operation of the
 * account (its api_token, as any other): mounted by the composition root at these paths.
 */
export const sellerApiRoutes: readonly (readonly [path: string, mount: (group: Hono<ServiceEnv>) => void])[] = [
  ['/account/api_token', mountTokenRotation],
  ['/account/attention', mountAttention],
  ['/account/connection_tests', mountConnectionTests],
];
