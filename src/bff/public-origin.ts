/**
 * The origin a browser sees the BFF at (`https://shop.example`), which behind a TLS-terminating proxy
 * is not the one the request arrived on (`http://10.0.0.7:8788`). Absolute links the BFF answers and
 * its same-origin check both use it, so neither trusts a header that any caller could set.
 *
 * In order: the configured `publicUrl`; else, when `trustProxy` counts proxies in front,
 * `X-Forwarded-Proto` and `X-Forwarded-Host` as the outermost trusted proxy set them; else the
 * request's own URL.
 */
export interface PublicOriginOptions {
  /** The BFF's address as browsers reach it, e.g. `https://shop.example`. Only its origin counts. */
  publicUrl?: string;
  /** How many proxies in front of the BFF set `X-Forwarded-*`. Default 0: the headers are ignored. */
  trustProxy?: number;
}

export type PublicOrigin = (request: Request) => string;

/** Host names with an optional port; IPv6 literals in brackets. Anything else in the header is ignored. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

export function publicOrigin(options: PublicOriginOptions): PublicOrigin {
  if (options.publicUrl !== undefined) {
    const origin = new URL(options.publicUrl).origin;
    return () => origin;
  }
  const hops = options.trustProxy ?? 0;
  if (hops <= 0) return (request) => new URL(request.url).origin;
  return (request) => {
    const own = new URL(request.url);
    const proto = forwarded(request.headers.get('x-forwarded-proto'), hops)?.toLowerCase();
    const host = forwarded(request.headers.get('x-forwarded-host'), hops);
    const protocol = proto === 'https' || proto === 'http' ? `${proto}:` : own.protocol;
    const authority = host && HOST.test(host) ? host.toLowerCase() : own.host;
    try {
      return new URL(`${protocol}//${authority}`).origin;
    } catch {
      return own.origin;
    }
  };
}

/** The entry the outermost trusted proxy wrote: each proxy appends its own, so count from the end. */
function forwarded(header: string | null, hops: number): string | undefined {
  const list = (header ?? '').split(',').map((value) => value.trim()).filter(Boolean);
  return list.length ? list[Math.max(0, list.length - hops)] : undefined;
}
