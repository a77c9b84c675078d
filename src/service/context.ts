import type { Context } from 'hono';
import type { Account } from './account.js';
import type { Database } from './db.js';
import type { KsefRuntime } from './ksef/runtime.js';
import type { LoginGuard } from './login-guard.js';
import type { PaymentProvider } from './payments/provider.js';
import type { Issuing } from './application/issuing.js';
import type { Registries } from '../server-kit/registries/index.js';
import type { BlikSettings } from './application/blik.js';

/**
 * What every request of the service carries: the configuration the composition root gives, and the
 * variables its middleware sets. The features' runtime types are named here, beside the context, so
 * that the HTTP helpers (`http.ts`) depend on no feature.
 */

/** The representation chosen by the path extension (spec §1 rule 2). */
export type Format = 'json' | 'xml' | 'pdf' | 'js' | 'html';

export interface ServiceConfig {
  /**
   * Public base URL of this service, used in `view_url`, `payment_url`, e-mail and integration
   * answers. It comes from configuration (or a configured trusted host), never from an untrusted `Host`.
   */
  publicUrl: string;
  integrationToken: string;
  /** Limits failed logins and checks passwords off the event loop. */
  loginGuard: LoginGuard;
  /** The test payment provider (Pay and Decline pages that record payments); off unless configured. */
  testPayments: boolean;
  /** The service's clock (today for recurring schedules); tests move it. */
  clock: () => Date;
  /** Who takes checkout payments; `null` when online payment is off. */
  paymentProvider: PaymentProvider | null;
  /** The test provider as this service runs it (its BLIK bank app's delay): an account that chooses `test` gets it. */
  testPaymentProvider: PaymentProvider;
  /** How long a BLIK code lives, and the test provider's approval delay. */
  blik: BlikSettings;
  /** KSeF: the local double's origin, the clock and the sender's queue. */
  ksef: KsefRuntime;
  /** How many proxies in front append to `X-Forwarded-For` (public routes' rate limits). 0 ignores the header. */
  trustProxy: number;
  /** The one step that issues invoices, for every route that issues one. */
  issuing: Issuing;
  /** NBP's exchange rates, VIES and the VAT white list, at their configured addresses. */
  registries: Registries;
}

export interface ServiceEnv {
  Variables: {
    db: Database;
    config: ServiceConfig;
    format: Format;
    body: Record<string, unknown>;
    account: Account;
    /** The request's id, sent back in `X-Request-Id` and written on its log lines. */
    requestId: string;
  };
}

export type ServiceContext = Context<ServiceEnv>;
