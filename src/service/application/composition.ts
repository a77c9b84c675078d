import type { Database } from '../db.js';
import type { KsefRuntime } from '../ksef/runtime.js';
import type { RateSource } from './exchange-rates.js';
import { createInvoiceMail } from './invoice-mail.js';
import type { Issuing } from './issuing.js';
import { ExchangeRateWorker } from './rate-worker.js';
import { createSellerAlerts, markKsefRefusal, SellerAlertWorker } from './seller-alerts.js';

export interface IssuingOptions {
  db: Database;
  /** `smtp://…`: e-mail through this server; without it, into the outbox. */
  smtpUrl?: string | undefined;
  ksef: KsefRuntime;
  clock: () => Date;
  publicUrl: () => string;
  /** Where NBP rates come from. Without one, no rate can be fetched: foreign-currency invoices wait for one. */
  rates?: RateSource | undefined;
  /** How often the rate worker looks for invoices still waiting. Default 30 s. */
  rateIntervalMs?: number | undefined;
}

const noRates: RateSource = () => Promise.reject(new Error('no NBP address is configured'));

/**
 * The issuing step's run-time parts, the worker that completes invoices waiting for a rate, and the
 * one that tells sellers of failed payments and failing webhooks and e-mails.
 */
export function createIssuing(options: IssuingOptions): { issuing: Issuing; rateWorker: ExchangeRateWorker; alertWorker: SellerAlertWorker } {
  const mail = createInvoiceMail(options.db, { smtpUrl: options.smtpUrl });
  const waiting = { kick: () => undefined as void };
  const issuing: Issuing = {
    db: options.db,
    ksef: options.ksef,
    mail,
    rates: options.rates ?? noRates,
    alerts: createSellerAlerts(options.db, mail, options.publicUrl),
    clock: options.clock,
    publicUrl: options.publicUrl,
    rateWaiting: () => waiting.kick(),
  };
  const rateWorker = new ExchangeRateWorker(issuing, { intervalMs: options.rateIntervalMs });
  // An invoice KSeF refused needs its seller: marked on the invoice, and the account told.
  options.ksef.onSettled?.(async (settled) => {
    if (settled && (await markKsefRefusal(options.db, settled.accountId, settled.invoiceId))) await issuing.alerts.tell(settled.accountId, settled.invoiceId);
  });
  waiting.kick = () => rateWorker.kick();
  return { issuing, rateWorker, alertWorker: new SellerAlertWorker(issuing.alerts, { clock: options.clock }) };
}
