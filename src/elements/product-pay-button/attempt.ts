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

export const randomKey = (): string => crypto.getRandomValues(new Uint32Array(4)).join('-');

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

/** Two decimal amounts are the same money: `"269.7"` and `"269.70"`. */
export const sameAmount = (a: string, b: string): boolean => {
  const plain = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);
  return plain(a) === plain(b);
};

/** Waits `ms` unless `signal` aborts first, then throws its reason: a quote waits for typing to pause. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}
