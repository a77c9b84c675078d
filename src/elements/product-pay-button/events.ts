import type { CheckoutBuyer, CheckoutOutcome, CheckoutStatus } from '../shared/sale-client.js';
import type { BlikFailureReason } from '../../contract/sale.js';

/** What every pay event tells: which product, how many, and the price the server will charge. */
export interface PayEventDetail {
  /** The product token. */
  readonly product: string;
  readonly quantity: number;
  /** Total gross amount, a decimal string in the currency's minor units. */
  readonly amount: string;
  readonly currency: string;
}

abstract class PayEvent<D extends PayEventDetail> extends Event {
  readonly detail: D;
  constructor(type: string, detail: D, cancelable = false) {
    super(type, { bubbles: true, composed: true, cancelable });
    this.detail = detail;
  }
}

export interface PayBeforeDetail extends PayEventDetail {
  /** What the buyer typed; absent when a signed-in customer (`portal-token`) is invoiced to their own record. */
  readonly buyer?: Readonly<CheckoutBuyer> | undefined;
}

/**
 * The buyer pressed Continue: nothing has been sent yet. Cancel it with `preventDefault()` to stop the
 * checkout, for example when your own terms checkbox is not ticked.
 */
export class PayBeforeEvent extends PayEvent<PayBeforeDetail> {
  constructor(detail: PayBeforeDetail) {
    super('pay-before', detail, true);
  }
}

export interface PayStartDetail extends PayEventDetail {
  /** Names this attempt; the outcome is asked of the server with it. */
  readonly attempt: string;
  /** The payment page the buyer is about to be sent to. */
  readonly redirectUrl: string;
}

/**
 * The server created the payment and the buyer is about to leave for the payment page. Cancel it to
 * take the buyer to `detail.redirectUrl` yourself (a popup, your router); the button then waits for
 * `checkOutcome()`.
 */
export class PayStartEvent extends PayEvent<PayStartDetail> {
  constructor(detail: PayStartDetail) {
    super('pay-start', detail, true);
  }
}

export interface PaySuccessDetail extends PayEventDetail {
  readonly attempt: string;
  /** The invoice issued for the payment, once the service has issued it. */
  readonly invoice: CheckoutOutcome['invoice'];
}

/** The server says the payment is paid. */
export class PaySuccessEvent extends PayEvent<PaySuccessDetail> {
  constructor(detail: PaySuccessDetail) {
    super('pay-success', detail);
  }
}

export interface PayCancelDetail extends PayEventDetail {
  readonly attempt: string;
  /** `declined` by the provider, `cancelled` by the buyer, or `pending` when the buyer came back without finishing. */
  readonly reason: Exclude<CheckoutStatus, 'paid'>;
  /** For a BLIK payment (`reason` is then `declined`): why it did not go through. */
  readonly failure?: BlikFailureReason;
}

/**
 * The buyer came back without paying: declined, cancelled or not finished; or a BLIK payment on the
 * page did not go through (`detail.failure` says why). Nothing was charged.
 */
export class PayCancelEvent extends PayEvent<PayCancelDetail> {
  constructor(detail: PayCancelDetail) {
    super('pay-cancel', detail);
  }
}

export interface PayErrorDetail extends PayEventDetail {
  /** HTTP status, or 0 when the server could not be reached. */
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** The checkout could not be started (network, validation, rate limit). The dialog offers a retry. */
export class PayErrorEvent extends PayEvent<PayErrorDetail> {
  constructor(detail: PayErrorDetail) {
    super('pay-error', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pay-before': PayBeforeEvent;
    'pay-start': PayStartEvent;
    'pay-success': PaySuccessEvent;
    'pay-cancel': PayCancelEvent;
    'pay-error': PayErrorEvent;
  }
}
