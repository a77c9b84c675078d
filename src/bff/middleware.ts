import type { Hono, MiddlewareHandler } from 'hono';
import { clientIp } from '../kernel/checkout.js';
import { bodyLimit } from 'hono/body-limit';
import { REQUEST_ID_HEADER, requestIdOf } from '../server-kit/request-id.js';
import type { Bff, BffContext, Env } from './context.js';
import { BffError, ERROR_CODES, notFound } from './errors.js';
import { PortalTokenError, verifyPortalToken, type PortalScope, type PortalSession } from './portal-token.js';

/** Request id, caller IP, security headers and one log entry per request. */
export function requestLog(bff: Bff): MiddlewareHandler<Env> {
  const { options } = bff;
  return async (c, next) => {
    const started = Date.now();
    // Behind a trusted proxy its id is kept; the service is sent the same one (see `Bff.service`).
    const requestId = requestIdOf(c.req.header(REQUEST_ID_HEADER), (options.trustProxy ?? 0) > 0);
    c.set('requestId', requestId);
    const ip = options.clientIp?.(c.req.raw, c.env) ?? forwardedFor(c.req.raw, options.trustProxy ?? 0) ?? socketAddress(c.env) ?? 'unknown';
    c.set('clientIp', ip);
    await next();
    c.header(REQUEST_ID_HEADER, requestId);
    applySecurityHeaders(c, bff);
    const session = c.get('session');
    const errorCode = c.res.status >= 400 ? c.res.headers.get('x-error-code') : null;
    c.res.headers.delete('x-error-code');
    bff.emit({
      level: c.res.status >= 500 ? 'error' : c.res.status >= 400 ? 'warn' : 'info',
      msg: 'request',
      request_id: requestId,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      status: c.res.status,
      duration_ms: Date.now() - started,
      ...(session ? { client_id: session.clientId } : {}),
      ...(errorCode ? { code: errorCode } : {}),
    });
  };
}

/** CORS for the allowed origins (others get 403), preflights, and the per-IP limit. */
export function cors(bff: Bff): MiddlewareHandler<Env> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    const ownOrigin = bff.publicOrigin(c.req.raw);
    const crossOrigin = origin !== undefined && origin !== ownOrigin;
    if (crossOrigin && !bff.allowedOrigins.has(origin)) {
      throw new BffError(403, ERROR_CODES.originNotAllowed, 'This origin may not call the BFF.');
    }
    if (crossOrigin) {
      c.header('Access-Control-Allow-Origin', origin);
      c.header(
        'Access-Control-Expose-Headers',
        'Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id, X-Total-Count, Idempotent-Replayed, Content-Disposition',
      );
    }
    c.header('Vary', 'Origin');
    if (c.req.method === 'OPTIONS') {
      if (crossOrigin) {
        c.header('Access-Control-Allow-Methods', 'GET, POST, PUT, OPTIONS');
        c.header('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, Accept, Accept-Language');
        c.header('Access-Control-Max-Age', '600');
      }
      return c.body(null, 204);
    }
    await bff.enforce(c, bff.limits.ip, `ip:${c.get('clientIp')}`);
    await next();
  };
}

export function limitBody(bff: Bff): MiddlewareHandler<Env> {
  const limit = bodyLimit({
    maxSize: bff.options.bodyLimitBytes ?? 16 * 1024,
    onError: () => {
      throw new BffError(413, ERROR_CODES.payloadTooLarge, 'The request body is too large.');
    },
  });
  // A webhook delivery carries a whole invoice; its route sets its own, larger limit.
  const webhooks = `${bff.basePath}/webhooks`;
  return (c, next) => (bff.options.webhooks && c.req.method === 'POST' && c.req.path === webhooks ? next() : limit(c, next));
}

/**
 * The portal session named by `Authorization: Bearer <portal token>`, checked for `scope`: a missing,
 * bad or expired token is a 401 and a missing scope a 403. With `optional`, no header at all is no
 * session (a guest), while a header that is present must still be right.
 */
export async function readSession(c: BffContext, bff: Bff, scope: PortalScope, optional = false): Promise<PortalSession | undefined> {
  const header = c.req.header('authorization');
  if (optional && header === undefined) return undefined;
  const match = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header ?? '');
  if (!match) {
    throw new BffError(401, ERROR_CODES.unauthorized, 'A portal token is required.', {
      headers: { 'WWW-Authenticate': 'Bearer realm="invoicekit"' },
    });
  }
  let session: PortalSession;
  try {
    session = await verifyPortalToken(match[1]!, bff.secretKey);
  } catch (error) {
    const expired = error instanceof PortalTokenError && error.reason === 'expired';
    throw new BffError(
      401,
      expired ? ERROR_CODES.tokenExpired : ERROR_CODES.unauthorized,
      expired ? 'The portal token has expired.' : 'The portal token is not valid.',
      { headers: { 'WWW-Authenticate': 'Bearer realm="invoicekit", error="invalid_token"' } },
    );
  }
  if (!session.scopes.has(scope)) {
    throw new BffError(403, ERROR_CODES.insufficientScope, `The portal token does not allow this (needs ${scope}).`, {
      headers: { 'WWW-Authenticate': `Bearer realm="invoicekit", error="insufficient_scope", scope="${scope}"` },
    });
  }
  c.set('session', session);
  return session;
}

/**
 * Requires a portal session with `scope` (see `readSession`), then counts the request against the
 * subject's limit (`limit`: `token`, or `list` for pages of the portal list).
 */
export function requireSession(bff: Bff, scope: PortalScope, limit: 'token' | 'list' = 'token'): MiddlewareHandler<Env> {
  return async (c, next) => {
    const session = (await readSession(c, bff, scope))!;
    await bff.enforce(c, bff.limits[limit], `${limit}:${session.clientId}`);
    await next();
  };
}

/** Every failure answers the BFF's error body; anything unexpected is logged and answers 500. */
export function answerErrors(bff: Bff, app: Hono<Env>): void {
  app.notFound((c) => {
    c.header('x-error-code', ERROR_CODES.notFound);
    return c.json(notFound('route').toBody(), 404);
  });

  app.onError((error, c) => {
    let answer: BffError;
    if (error instanceof BffError) answer = error;
    else {
      answer = new BffError(500, ERROR_CODES.internal, 'Something went wrong.');
      bff.emit({ level: 'error', msg: 'unexpected failure', request_id: c.get('requestId'), error: error instanceof Error ? error.name : typeof error });
    }
    for (const [name, value] of Object.entries(answer.headers ?? {})) c.header(name, value);
    c.header('x-error-code', answer.code);
    c.header('Cache-Control', 'no-store');
    return c.json(answer.toBody(), answer.status as 400);
  });
}

/** The address the socket came from, when a Node adapter passes its `IncomingMessage` as `env.incoming`. */
function socketAddress(env: unknown): string | undefined {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress;
}

/** The checkout core's rule (src/kernel/checkout.ts), shared with the service's widget routes. */
function forwardedFor(request: Request, hops: number): string | undefined {
  const ip = clientIp(request.headers.get('x-forwarded-for'), undefined, hops);
  return ip === 'unknown' ? undefined : ip;
}

function applySecurityHeaders(c: BffContext, { allowedOrigins, publicOrigin }: Bff): void {
  const headers = c.res.headers;
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'no-referrer');
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
  if (publicOrigin(c.req.raw).startsWith('https:')) headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  if (headers.get('Content-Type')?.startsWith('application/pdf')) {
    // Only who may frame the PDF; anything more would stop the browser's PDF viewer.
    headers.set('Content-Security-Policy', `frame-ancestors 'self' ${[...allowedOrigins].join(' ')}`.trim());
  } else {
    headers.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    headers.set('X-Frame-Options', 'DENY');
    headers.set('Cross-Origin-Resource-Policy', 'same-origin');
  }
}
