import type { CheckoutOutcome, SaleClient } from '../shared/sale-client.js';

/**
 * How the attempt ended, as the server records it: a provider may report a moment after the buyer is
 * back, so it asks a few times before calling it unfinished. Loaded only when a buyer comes back.
 */
export async function askOutcome(client: SaleClient, attempt: string, signal: AbortSignal): Promise<CheckoutOutcome | undefined> {
  let outcome: CheckoutOutcome | undefined;
  for (let i = 0; i < 4 && (outcome?.status ?? 'pending') === 'pending'; i += 1) {
    outcome = await new Promise((resolve) => setTimeout(resolve, 900 * i)).then(() => client.outcome(attempt, signal)).catch(() => outcome);
    if (signal.aborted) return undefined;
  }
  return outcome;
}
