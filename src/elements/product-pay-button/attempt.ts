/** Where an attempt waits while the buyer is on the payment page; the page they come back to reads it. */
const STORAGE_KEY = 'invoicekit:checkout';

export interface PendingAttempt {
  attempt: string;
  source: string;
  product: string;
  quantity: number;
  amount: string;
  currency: string;
}

/** Reads (no argument) or replaces the attempt waiting for the buyer's return. */
export function pendingAttempt(value?: PendingAttempt | null): PendingAttempt | undefined {
  try {
    if (value !== undefined) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(value));
    return JSON.parse(sessionStorage[STORAGE_KEY] ?? null) ?? undefined;
  } catch {
    // Storage may be off (private modes, sandboxed frames): the outcome is then not shown on return.
    return undefined;
  }
}
