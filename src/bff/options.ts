import type { createInvoicingClient } from '../api/client.js';
import type { BffLogger } from './logger.js';
import type { IdempotencyStore } from './idempotency.js';
import type { PortalScope, PortalSecret } from './portal-token.js';
import type { RateLimitOptions } from './rate-limit.js';
import type { CacheStore } from './cache.js';
import type { BffStores } from './stores/types.js';
import type { WebhookReceiverOptions } from './events.js';
import type { RateLimitRule } from '../server-kit/rate-limit.js';
import type { Registries, RegistryOptions } from '../server-kit/registries/index.js';

export type InvoicingClient = ReturnType<typeof createInvoicingClient>;

/** The part of the typed client the BFF uses; any object of this shape will do (a client with hooks, say). */
export interface BffServiceClient {
  /**
   * `summary` is optional: without it the portal list reads whole lists (see docs/bff.md).
   * `listFields` is optional too: without it the portal list reads whole invoices of its page.
   * With `listPage` the first page and its summary are one call where the service answers both.
   * `einvoice` is optional: without it the portal offers XML e-invoices to no one.
   */
  invoices: Pick<InvoicingClient['invoices'], 'list' | 'get' | 'pdf'> &
    Partial<Pick<InvoicingClient['invoices'], 'summary' | 'listFields' | 'listPage' | 'einvoice'>>;
  products: Pick<InvoicingClient['products'], 'list' | 'get'>;
  clients: Pick<InvoicingClient['clients'], 'get' | 'update' | 'create'>;
  /** `sendBlikCode` is optional: without it the checkout takes no BLIK code on the page. */
  payments: Pick<InvoicingClient['payments'], 'create' | 'get'> & Partial<Pick<InvoicingClient['payments'], 'sendBlikCode'>>;
  /**
   * Asked whether the account's provider moves real money; without it products never say `test_mode`.
   * `paymentMethods` is optional: without it (or against a service without the route) no BLIK is offered.
   */
  account?: Pick<InvoicingClient['account'], 'paymentSettings'> & Partial<Pick<InvoicingClient['account'], 'paymentMethods'>>;
  /** Optional: the seller's country for the VAT of a sale (else `checkout.sellerCountry`, else PL). */
  departments?: Pick<InvoicingClient['departments'], 'list'>;
}

export interface SignupOptions {
  /** Answer a portal token for the new client, so the page can go on to the portal. Default: none. */
  portalToken?: { scopes?: readonly PortalScope[]; ttlSeconds?: number };
  /** Called after the client was created, e.g. to link it to the host's own user. */
  onCreated?: (client: { id: number; email: string | null; name: string }) => void | Promise<void>;
}

export interface CheckoutOptions {
  /** Ask the service to issue an invoice once the payment is paid. Default true. */
  generateInvoice?: boolean;
  /** The seller (department) payments are made to; the service's default when omitted. */
  departmentId?: number;
  /** Most units one checkout may buy. Default 1000. */
  maxQuantity?: number;
  /**
   * Whether products say `test_mode: true`, so the button shows a "Test mode" badge. By default (or
   * `'service'`) the account decides: the BFF asks the service (`GET /account/payments`) and says test
   * mode while the account's provider moves no real money (the test provider, Stripe test keys,
   * Przelewy24's sandbox), remembering the answer for `productCacheMs`. A service without that
   * endpoint (the hosted one) is taken as live. `true` or `false` decides outright.
   */
  testMode?: boolean | 'service';
  /**
   * The seller's country (ISO 3166-1), which with the buyer's decides the VAT of a sale. Default: the
   * country of the service's department for `departmentId`, else its default department, else PL.
   */
  sellerCountry?: string;
  /**
   * The seller's VAT number, named as the requester of the VIES consultations a checkout makes (their
   * `requestIdentifier` needs one). Default: the tax number of the department the country comes from.
   */
  sellerVatNumber?: string;
  /**
   * Whether the seller is registered for OSS (art. 130a–130d of the VAT act). Default: the department's
   * `oss_registered`, as the service answers it (false against a service that has no such field).
   */
  ossRegistered?: boolean;
  /**
   * Whether the checkout takes a BLIK code on the page (products in PLN then say `blik: true`). By
   * default the account decides: the BFF asks the service (`GET /account/payment_methods`), remembering
   * the answer for `productCacheMs`; a service without that route (the hosted one) means no BLIK.
   * `true` or `false` decides outright.
   */
  blik?: boolean;
}

export interface BffOptions {
  /** A typed client of the invoicing service. Or give `serviceUrl` and `apiToken`. */
  client?: BffServiceClient;
  /**
   * The `fetch` the client made from `serviceUrl` and `apiToken` uses. Default the global one;
   * `startBff` gives one over Node's `http` with keep-alive connections (see `node-fetch.ts`).
   */
  serviceFetch?: typeof fetch;
  /**
   * The service's write count, a value that moves with every write the service makes: its
   * `writeCount` for a BFF in the service's own process on PGlite, or `followServiceWrites(…).writeCount`
   * for one in another process on the same host (`startBff` follows a loopback service by itself).
   * While it stands still, a first page the BFF holds with its entity tag is answered without asking
   * the service again, as the service would answer `304` to it. `undefined` (not following) asks.
   * Leave it out everywhere else: each request then asks the service with the tag.
   */
  serviceWriteCount?: () => number | string | undefined | Promise<number | string | undefined>;
  serviceUrl?: string;
  /**
   * Names the account in every key the stores keep, so that BFFs of several accounts can share one
   * Redis or PostgreSQL. Default: a hash of `serviceUrl` and `apiToken` (the same in every process
   * of one account, and telling nothing of the token); give one with `client`.
   */
  account?: string;
  /** The account's api_token. It stays on the server: no answer and no log line carries it. */
  apiToken?: string;
  /** Signs portal tokens (HS256, at least 32 bytes). The host's backend mints tokens with the same secret. */
  portalSecret: PortalSecret;
  /** Origins (`https://shop.example`) whose pages may call the BFF. Same-origin calls always may. */
  allowedOrigins?: readonly string[];
  /** Origins checkout may send the buyer back to, beside `allowedOrigins` and the BFF's own. */
  returnUrlOrigins?: readonly string[];
  /** Where the routes live. Default `/bff`. */
  basePath?: string;
  /** Limits per IP, per portal token and for creating things; `false` turns them off. */
  rateLimit?: RateLimitOptions | false;
  /** Remembers checkout answers per `Idempotency-Key`. Default: in memory. */
  idempotencyStore?: IdempotencyStore;
  /**
   * Keeps short-lived answers of the service (products by token, portal lists). Default: in memory.
   * Several BFF processes may share one (Redis, say) through the same three methods.
   */
  cacheStore?: CacheStore;
  /**
   * Idempotency keys, rate-limit counters and the cache, shared by every BFF process given the same
   * stores (`redisStores`, `postgresStores`, `storesFromEnv`). `idempotencyStore`, `cacheStore` and
   * `rateLimit.store` still override one each. Default: this process's memory.
   */
  stores?: BffStores;
  /** Once this returns true, `/readyz` answers 503 so a load balancer stops sending work (shutdown). */
  draining?: () => boolean;
  /** Largest request body. Default 16 KiB. */
  bodyLimitBytes?: number;
  /** How long one call to the service may take before the BFF answers 504. Default 10 s. */
  serviceTimeoutMs?: number;
  /** Receives one structured entry per request and per failure; `false` for none. Default: JSON lines on stdout. */
  logger?: BffLogger | false;
  /** Enables `POST /clients` (sign-up). Default off. */
  signup?: boolean | SignupOptions;
  checkout?: CheckoutOptions;
  /** The time zone whose calendar decides when an invoice is overdue. Default UTC. */
  timeZone?: string;
  /** How long a product looked up by token is remembered. Default 30 s. */
  productCacheMs?: number;
  /** Lifetime of the signed PDF links. Default 5 minutes, at most 1 hour. */
  pdfLinkTtlSeconds?: number;
  /**
   * How to find the caller's IP for rate limits. Default: behind `trustProxy` hops of proxies the
   * matching `X-Forwarded-For` entry, else the socket address Node adapters pass in.
   */
  clientIp?: (request: Request, env: unknown) => string | undefined;
  /**
   * How many proxies in front of the BFF append to `X-Forwarded-For` and set `X-Forwarded-Proto`,
   * `X-Forwarded-Host` and `X-Request-Id` (kept as the request's id). Default 0: those headers are ignored.
   */
  trustProxy?: number;
  /**
   * The BFF's address as browsers reach it (`https://shop.example`), for the absolute links it answers
   * (`pdf-link`) and its same-origin check. Default: from a trusted proxy's `X-Forwarded-Proto` and
   * `X-Forwarded-Host`, else the request's own URL.
   */
  publicUrl?: string;
  /**
   * With a service that lacks the list summary (the hosted one), how many invoices of one client
   * the portal list reads at most. Default 20,000.
   */
  maxInvoicesPerClient?: number;
  /**
   * Receives the service's signed webhooks at `POST /webhooks` and streams each customer's invoice
   * changes at `GET /events` (Server-Sent Events). Off without a secret.
   */
  webhooks?: WebhookReceiverOptions;
  /**
   * Where NBP, VIES and the VAT white list are (`INVOICEKIT_NBP_API_URL`, `INVOICEKIT_VIES_API_URL`,
   * `INVOICEKIT_MF_WHITELIST_URL`), for `GET /company/:country/:tax_no` and for the VIES check before a
   * checkout charges no Polish VAT. Default: their public addresses. Or give the clients themselves.
   */
  registries?: BffRegistryOptions | Registries;
}

export interface BffRegistryOptions extends RegistryOptions {
  /** Company lookups per client IP. Default 30 a minute; `false` leaves only the per-IP limit. */
  lookupRateLimit?: RateLimitRule | false;
}
