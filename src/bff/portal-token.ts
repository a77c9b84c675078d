import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';

/**
 * What a portal token may allow. A host grants the smallest set its page needs. `checkout` lets the
 * customer buy as themselves: the purchase is invoiced to their own client record.
 */
export const PORTAL_SCOPES = ['invoices:read', 'client:read', 'client:write', 'checkout'] as const;
export type PortalScope = (typeof PORTAL_SCOPES)[number];

export const PORTAL_TOKEN_ISSUER = 'invoicekit-bff';
export const PORTAL_TOKEN_AUDIENCE = 'invoicekit-portal';
/** Audience of the short links that open one invoice's PDF without an Authorization header. */
export const PDF_LINK_AUDIENCE = 'invoicekit-pdf-link';
/** Audience of the tickets that open one client's event stream, which EventSource can only name in its URL. */
export const EVENTS_TICKET_AUDIENCE = 'invoicekit-events-ticket';
/** Long enough to open the stream once; a URL in a log is of no use for longer. */
export const EVENTS_TICKET_TTL_SECONDS = 60;

export const DEFAULT_PORTAL_TOKEN_TTL_SECONDS = 15 * 60;
export const MAX_PORTAL_TOKEN_TTL_SECONDS = 24 * 60 * 60;
/** HS256 wants a key at least as long as its hash: 256 bits. */
export const MIN_PORTAL_SECRET_BYTES = 32;

export interface PortalTokenRequest {
  /** The invoicing service's id of the client (customer) the token speaks for. */
  clientId: number | string;
  /** Defaults to every portal scope. */
  scopes?: readonly PortalScope[];
  /** Defaults to 15 minutes; at most 24 hours. */
  ttlSeconds?: number;
  /**
   * When the token counts as issued (its `iat`); it expires `ttlSeconds` after. Defaults to now. Pass
   * your own clock's time, or a past one to mint a token that is already expired (in tests).
   */
  issuedAt?: Date;
}

export interface PortalSession {
  clientId: number;
  scopes: ReadonlySet<PortalScope>;
  expiresAt: number;
}

export type PortalSecret = string | Uint8Array;

export function portalSecretKey(secret: PortalSecret): Uint8Array {
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  if (key.byteLength < MIN_PORTAL_SECRET_BYTES) {
    throw new TypeError(`The portal secret must be at least ${MIN_PORTAL_SECRET_BYTES} bytes long.`);
  }
  return key;
}

function parseClientId(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^[1-9]\d{0,15}$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}

/**
 * Mints the token a host backend hands to its page so the portal elements can act for one client.
 * Call it on the server, after the host has authenticated its own user. It is valid from
 * `request.issuedAt` (default now) for `request.ttlSeconds`.
 */
export async function issuePortalToken(request: PortalTokenRequest, secret: PortalSecret): Promise<string> {
  const clientId = parseClientId(request.clientId);
  if (clientId === undefined) throw new TypeError('clientId must be a positive integer id.');
  const scopes = request.scopes ?? PORTAL_SCOPES;
  for (const scope of scopes) {
    if (!(PORTAL_SCOPES as readonly string[]).includes(scope)) throw new TypeError(`Unknown portal scope: ${scope}`);
  }
  const ttl = request.ttlSeconds ?? DEFAULT_PORTAL_TOKEN_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_PORTAL_TOKEN_TTL_SECONDS) {
    throw new TypeError(`ttlSeconds must be a whole number from 1 to ${MAX_PORTAL_TOKEN_TTL_SECONDS}.`);
  }
  const issuedAt = request.issuedAt ?? new Date();
  if (!(issuedAt instanceof Date) || Number.isNaN(issuedAt.getTime())) throw new TypeError('issuedAt must be a valid Date.');
  const iat = Math.floor(issuedAt.getTime() / 1000);
  return new SignJWT({ scope: [...new Set(scopes)].join(' ') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(clientId))
    .setIssuer(PORTAL_TOKEN_ISSUER)
    .setAudience(PORTAL_TOKEN_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .sign(portalSecretKey(secret));
}

/** A portal token that is missing, malformed, expired, tampered with or signed with another secret. */
export class PortalTokenError extends Error {
  readonly reason: 'expired' | 'invalid';
  constructor(reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'The portal token has expired.' : 'The portal token is not valid.');
    this.name = 'PortalTokenError';
    this.reason = reason;
  }
}

/** How many verified tokens are remembered per secret; the oldest makes room for a new one. */
const VERIFIED_KEPT = 5000;
const verified = new WeakMap<Uint8Array, Map<string, PortalSession>>();

/**
 * The session a portal token speaks for. A token once verified is remembered (per secret) until it
 * expires: its signature and claims cannot change, and checking the signature again costs more
 * than the rest of a cached request. Only the expiry depends on the time, and it is checked on
 * every use, by `options.now` (ms since the epoch; default `Date.now`), which tests move.
 */
export async function verifyPortalToken(token: string, key: Uint8Array, options: { now?: () => number } = {}): Promise<PortalSession> {
  const now = options.now ?? Date.now;
  let known = verified.get(key);
  const session = known?.get(token);
  if (session) {
    if (session.expiresAt > Math.floor(now() / 1000)) return session;
    known!.delete(token);
    throw new PortalTokenError('expired');
  }
  const fresh = await verifySignedPortalToken(token, key, new Date(now()));
  if (!known) verified.set(key, (known = new Map()));
  if (known.size >= VERIFIED_KEPT) known.delete(known.keys().next().value!);
  known.set(token, fresh);
  return fresh;
}

async function verifySignedPortalToken(token: string, key: Uint8Array, currentDate: Date): Promise<PortalSession> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: PORTAL_TOKEN_ISSUER,
      audience: PORTAL_TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'exp'],
      currentDate,
    });
    const clientId = parseClientId(payload.sub);
    if (clientId === undefined || typeof payload.exp !== 'number') throw new PortalTokenError('invalid');
    const granted = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    const scopes = new Set(granted.filter((s): s is PortalScope => (PORTAL_SCOPES as readonly string[]).includes(s)));
    return Object.freeze({ clientId, scopes, expiresAt: payload.exp });
  } catch (error) {
    if (error instanceof PortalTokenError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new PortalTokenError('expired');
    throw new PortalTokenError('invalid');
  }
}

/** A short-lived token for one purpose (its audience), bound to a client: PDF links and event tickets. */
function issueShortLived(audience: string, clientId: number, claims: Record<string, unknown>, ttlSeconds: number, key: Uint8Array | CryptoKey): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(clientId))
    .setIssuer(PORTAL_TOKEN_ISSUER)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key);
}

/** The client and the claims of a token issued by `issueShortLived` for `audience`; `PortalTokenError` otherwise. */
async function verifyShortLived(audience: string, token: string, key: Uint8Array): Promise<{ clientId: number; claims: Record<string, unknown> }> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: PORTAL_TOKEN_ISSUER, audience, requiredClaims: ['sub', 'exp'] });
    const clientId = parseClientId(payload.sub);
    if (clientId === undefined) throw new PortalTokenError('invalid');
    return { clientId, claims: payload };
  } catch (error) {
    if (error instanceof PortalTokenError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new PortalTokenError('expired');
    throw new PortalTokenError('invalid');
  }
}

/**
 * A link token for one invoice's PDF: short-lived, bound to the client and the invoice. `key` may be
 * the secret's bytes or, to sign many links at once, its HMAC `CryptoKey` (importing the bytes is
 * most of the work).
 */
export function issuePdfLinkToken(clientId: number, invoiceId: number, ttlSeconds: number, key: Uint8Array | CryptoKey): Promise<string> {
  return issueShortLived(PDF_LINK_AUDIENCE, clientId, { inv: invoiceId }, ttlSeconds, key);
}

export async function verifyPdfLinkToken(token: string, key: Uint8Array): Promise<{ clientId: number; invoiceId: number }> {
  const { clientId, claims } = await verifyShortLived(PDF_LINK_AUDIENCE, token, key);
  const invoiceId = parseClientId(claims.inv);
  if (invoiceId === undefined) throw new PortalTokenError('invalid');
  return { clientId, invoiceId };
}

/**
 * A ticket for the event stream: it opens `GET /events` for one client within a minute and does
 * nothing else, so the URL that carries it (and the access logs that keep the URL) never hold the
 * portal token itself.
 */
export function issueEventsTicket(clientId: number, key: Uint8Array, ttlSeconds = EVENTS_TICKET_TTL_SECONDS): Promise<string> {
  return issueShortLived(EVENTS_TICKET_AUDIENCE, clientId, {}, ttlSeconds, key);
}

export async function verifyEventsTicket(ticket: string, key: Uint8Array): Promise<{ clientId: number }> {
  const { clientId } = await verifyShortLived(EVENTS_TICKET_AUDIENCE, ticket, key);
  return { clientId };
}
