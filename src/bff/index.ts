export { renderInvoiceList, type RenderInvoiceListOptions, type RenderInvoiceListRequest } from './render-invoice-list.js';
export { createBff, type BffApp, type BffOptions, type BffServiceClient, type CheckoutOptions, type SignupOptions } from './app.js';
export {
  issuePortalToken,
  verifyPortalToken,
  portalSecretKey,
  PortalTokenError,
  PORTAL_SCOPES,
  PORTAL_TOKEN_AUDIENCE,
  PORTAL_TOKEN_ISSUER,
  type PortalScope,
  type PortalSecret,
  type PortalSession,
  type PortalTokenRequest,
} from './portal-token.js';
export { MemoryCacheStore, type CacheStore, type MemoryCacheStoreOptions } from './cache.js';
export { MemoryIdempotencyStore, type IdempotencyClaim, type IdempotencyStore, type StoredAnswer } from './idempotency.js';
export { MemoryRateLimitStore, DEFAULT_RATE_LIMITS, type RateLimitOptions, type RateLimitRule, type RateLimitStore } from './rate-limit.js';
export { BffError, ERROR_CODES, type ErrorBody, type ErrorCode } from './errors.js';
export { jsonLineLogger, type BffLogEntry, type BffLogger } from './logger.js';
export { CUSTOMER_STATUSES, type CustomerClient, type CustomerInvoice, type CustomerPosition, type CustomerStatus } from '../contract/portal.js';
export type { PublicProduct } from '../contract/sale.js';
export { startBff, followServiceWrites, type RunningBff, type StartBffOptions } from './node.js';
export type { FollowServiceWritesOptions, ServiceWriteFeed } from './node-write-feed.js';
export {
  memoryStores,
  redisStores,
  postgresStores,
  storesFromEnv,
  type BffStores,
  type SharedStoreOptions,
  type RedisCommands,
  type RedisStoreOptions,
  type PostgresQueryable,
  type PostgresStoreOptions,
} from './stores/index.js';
export {
  MemoryEventHub,
  subscribeBffToWebhooks,
  verifyWebhookSignature,
  BFF_WEBHOOK_KINDS,
  type CustomerEvent,
  type EventHub,
  type WebhookReceiverOptions,
} from './events.js';
