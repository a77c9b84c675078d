import type { WebhooksApi } from '../api/resources/webhooks.js';
import type { CustomerInvoice } from '../contract/portal.js';

/**
 * What the elements learn without polling: a change to one of the customer's invoices (a payment
 * shows up as the invoice's new `paid` and status). Only that customer's stream carries it.
 */
export interface CustomerEvent {
  type: 'invoice.created' | 'invoice.updated';
  invoice: CustomerInvoice;
}

/**
 * Fans events out to the event streams open for one client. The default keeps listeners in this
 * process; with several BFF processes behind a load balancer, give one backed by a shared bus
 * (Redis pub/sub, PostgreSQL LISTEN/NOTIFY) so an event received by one reaches streams on all.
 */
export interface EventHub {
  publish(clientId: number, event: CustomerEvent): void | Promise<void>;
  /** Calls `listener` for each event of `clientId` until the returned function is called. */
  subscribe(clientId: number, listener: (event: CustomerEvent) => void): () => void;
}

export class MemoryEventHub implements EventHub {
  readonly #listeners = new Map<number, Set<(event: CustomerEvent) => void>>();

  publish(clientId: number, event: CustomerEvent): void {
    for (const listener of this.#listeners.get(clientId) ?? []) {
      try {
        listener(event);
      } catch {
        // One broken stream must not keep the event from the others.
      }
    }
  }

  subscribe(clientId: number, listener: (event: CustomerEvent) => void): () => void {
    let set = this.#listeners.get(clientId);
    if (!set) this.#listeners.set(clientId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(clientId);
    };
  }

  /** How many streams are open for `clientId` (for tests and metrics). */
  listeners(clientId: number): number {
    return this.#listeners.get(clientId)?.size ?? 0;
  }
}

export interface WebhookReceiverOptions {
  /**
   * The signing secret(s) of the service's webhooks (`secret` of each webhook). Several while a
   * secret is being rotated. Without any, the receiver route is not mounted.
   */
  secret: string | readonly string[];
  /** How old a signature may be before it is refused as a replay. Default 300 s. */
  toleranceSeconds?: number;
  /** Where events go; default in this process. */
  hub?: EventHub;
}

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Constant-time comparison of two hex strings of equal length. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Checks an `X-Invoicekit-Signature: t=…,v1=…` header against the raw body: HMAC-SHA256 of
 * `"<t>.<body>"` with one of the secrets, and `t` within the tolerance. Web Crypto only, so it runs
 * on edge runtimes too.
 */
export async function verifyWebhookSignature(
  header: string | undefined,
  body: string,
  secrets: string | readonly string[],
  toleranceSeconds = 300,
  now = Date.now(),
): Promise<boolean> {
  const parts = new Map<string, string[]>();
  for (const piece of (header ?? '').split(',')) {
    const at = piece.indexOf('=');
    if (at > 0) parts.set(piece.slice(0, at).trim(), [...(parts.get(piece.slice(0, at).trim()) ?? []), piece.slice(at + 1).trim()]);
  }
  const timestamp = Number(parts.get('t')?.[0]);
  const signatures = parts.get('v1') ?? [];
  if (!Number.isSafeInteger(timestamp) || signatures.length === 0) return false;
  if (Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    if (!secret) continue;
    const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const expected = hex(await crypto.subtle.sign('HMAC', key, encoder.encode(`${timestamp}.${body}`)));
    if (signatures.some((signature) => sameHex(signature.toLowerCase(), expected))) return true;
  }
  return false;
}

/** The part of the typed client that manages webhooks. */
interface WebhooksClient {
  webhooks: Pick<WebhooksApi, 'list' | 'create' | 'update'>;
}

export const BFF_WEBHOOK_KINDS = ['invoice:create', 'invoice:update'] as const;

/**
 * Subscribes the BFF's receiver (`url`, e.g. `https://shop.example/bff/webhooks`) to the invoice
 * events of the account, signed with `secret`; run it at start-up. Existing subscriptions to the
 * same URL are reused, so restarts add none.
 */
export async function subscribeBffToWebhooks(client: WebhooksClient, url: string, secret: string): Promise<void> {
  const existing: { id: number; kind: string; url: string }[] = [];
  for (let page = 1; page <= 50; page += 1) {
    const batch = await client.webhooks.list({ page, per_page: 100 });
    existing.push(...batch);
    if (batch.length < 100) break;
  }
  for (const kind of BFF_WEBHOOK_KINDS) {
    const found = existing.find((hook) => hook.url === url && hook.kind === kind);
    if (found) await client.webhooks.update(found.id, { secret, active: true });
    else await client.webhooks.create({ kind, url, secret, active: true });
  }
}
