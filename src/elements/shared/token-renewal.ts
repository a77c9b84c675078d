/**
 * A portal token that expires while the page is open, renewed by the host instead of a reload. When
 * the BFF answers that the token expired, the element fires `token-expired`; the host either sets
 * `portalToken` in its handler or has given a `tokenProvider`, which the element then calls once.
 * The request that failed is sent again once with the new token. Without either, the failure stands
 * and the element shows its session message.
 */

/** Answers a new portal token for the same customer, from the host's backend. */
export type TokenProvider = () => Promise<string>;

/** An element that talks to the BFF under a portal token the host may renew. */
export interface TokenHolder extends HTMLElement {
  portalToken: string;
  tokenProvider?: TokenProvider | undefined;
}

/**
 * The token a BFF client sends. Called without an argument, it answers the token to send now; called
 * with the token the BFF refused as expired, it answers a newer one, renewing it when there is none
 * yet, or an empty string when the host gives none.
 */
export type PortalTokenSource = (expired?: string) => Promise<string>;

/**
 * The BFF said the element's portal token has expired. Cancelable: `preventDefault()` keeps the
 * element from calling its `tokenProvider` (the host takes over, and may set `portalToken` later).
 */
export class TokenExpiredEvent extends Event {
  constructor() {
    super('token-expired', { bubbles: true, composed: true, cancelable: true });
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'token-expired': TokenExpiredEvent;
  }
}

/**
 * The last renewal of each element: the `portalToken` it stood in for, and the token it gave. A
 * token the host sets later wins; requests that find the token expired meanwhile share the renewal.
 */
const renewals = new WeakMap<TokenHolder, [given: string, fresh: Promise<string>]>();

/**
 * The token source of an element: its `portalToken`, or the one its provider gave in its place.
 * `fire` dispatches the element's `TokenExpiredEvent` and answers `dispatchEvent`'s result.
 */
export function portalTokenSource(host: TokenHolder, fire: () => boolean): PortalTokenSource {
  return async (expired) => {
    const given = host.portalToken;
    const last = renewals.get(host);
    const current = (last?.[0] === given && (await last[1])) || given;
    if (current !== expired) return current;
    const fresh = (async () => {
      const proceed = fire();
      // A token the handler set counts; otherwise the provider's, unless the handler cancelled.
      if (host.portalToken !== given) return host.portalToken;
      return (proceed && (await host.tokenProvider?.().catch(() => ''))) || '';
    })();
    renewals.set(host, [given, fresh]);
    return fresh;
  };
}
