import type { KeyObject } from 'node:crypto';
import { outboundFetch } from '../outbound.js';
import { aesEncrypt, encryptKsefToken, newSessionKey, publicKeyOfCertificate, rsaOaepEncrypt } from './crypto.js';
import {
  KsefError,
  ksefHosts,
  sha256Base64,
  type KsefEnvironment,
  type KsefGateway,
  type KsefOutcome,
  type KsefReceipt,
  type KsefSubmission,
} from './gateway.js';

/**
 * The KSeF API 2.0 client: authentication with a KSeF token, an online session with the invoice
 * encrypted, the invoice's status, KSeF number and UPO. Every call goes through one retry rule
 * (`retryDelay`): KSeF's limits (429, honouring `Retry-After`), outages (5xx) and network failures
 * are tried again with a growing delay; anything else is final.
 */
export interface KsefClientOptions {
  /** The bundled double's origin, for the `local` environment. */
  readonly localOrigin?: string | (() => string | undefined);
  readonly fetch?: typeof fetch;
  /** Waits between attempts; tests pass one that records and returns at once. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly clock?: () => Date;
  /** 0 ≤ x < 1, spreads the backoff; `Math.random` by default. */
  readonly random?: () => number;
  /** Attempts per call, the first included. Default 5. */
  readonly attempts?: number;
}

export interface KsefClient extends KsefGateway {
  /** Reads the outcome until KSeF has decided (or `polls` readings have passed), waiting between readings. */
  awaitOutcome(receipt: KsefReceipt, token: string, polls?: number): Promise<KsefOutcome>;
}

const fa3FormCode = { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' } as const;
const maxDelayMs = 60_000;
const certificatesLifetimeMs = 60 * 60_000;

/**
 * The one retry rule: how long to wait before attempt `attempt + 1` after `failure`, or undefined to
 * give up. `Retry-After` wins when KSeF sends it; otherwise 1 s, 2 s, 4 s… (half fixed, half random).
 */
export function retryDelay(failure: KsefError, attempt: number, attempts: number, random: () => number): number | undefined {
  if (!failure.retryable || attempt >= attempts) return undefined;
  if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, maxDelayMs);
  const backoff = Math.min(1000 * 2 ** (attempt - 1), maxDelayMs);
  return Math.round(backoff / 2 + (backoff / 2) * random());
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

interface Keys {
  readonly token: KeyObject;
  readonly tokenKeyId: string | undefined;
  readonly symmetric: KeyObject;
  readonly symmetricKeyId: string | undefined;
  readonly fetchedAt: number;
}

export function createKsefClient(options: KsefClientOptions = {}): KsefClient {
  // Through the service's outbound client by default: its deadline, answer cap and errors (a UPO is small; 8 MiB is ample).
  const fetchImpl = options.fetch ?? outboundFetch({ timeoutMs: 60_000, maxResponseBytes: 8 * 1024 * 1024 });
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const clock = options.clock ?? (() => new Date());
  const random = options.random ?? Math.random;
  const attempts = options.attempts ?? 5;
  const keys = new Map<string, Keys>();
  const accessTokens = new Map<string, { token: string; validUntil: number }>();

  function baseUrl(environment: KsefEnvironment): string {
    const local = typeof options.localOrigin === 'function' ? options.localOrigin() : options.localOrigin;
    return ksefHosts(environment, local).apiBaseUrl;
  }

  async function once(url: string, init: RequestInit): Promise<Answer> {
    let response: Response;
    try {
      response = await fetchImpl(url, init);
    } catch (error) {
      throw new KsefError('retryable', 'KSeF could not be reached.', { cause: error });
    }
    const answer = { status: response.status, headers: response.headers, text: await response.text() };
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw failureOf(answer);
  }

  async function call(environment: KsefEnvironment, method: string, path: string, init: { bearer?: string; json?: unknown; accept?: string } = {}): Promise<Answer> {
    const headers: Record<string, string> = { Accept: init.accept ?? 'application/json', 'X-Error-Format': 'problem-details' };
    if (init.bearer) headers.Authorization = `Bearer ${init.bearer}`;
    if (init.json !== undefined) headers['Content-Type'] = 'application/json';
    const request: RequestInit = { method, headers, ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }) };
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(`${baseUrl(environment)}${path}`, request);
      } catch (error) {
        const failure = error instanceof KsefError ? error : new KsefError('final', String(error), { cause: error });
        const delay = retryDelay(failure, attempt, attempts, random);
        if (delay === undefined) throw failure;
        await sleep(delay);
      }
    }
  }

  async function json<T>(environment: KsefEnvironment, method: string, path: string, init: { bearer?: string; json?: unknown } = {}): Promise<T> {
    const answer = await call(environment, method, path, init);
    try {
      return JSON.parse(answer.text) as T;
    } catch (error) {
      throw new KsefError('retryable', `KSeF answered ${method} ${path} with something that is not JSON.`, { status: answer.status, cause: error });
    }
  }

  async function publicKeys(environment: KsefEnvironment): Promise<Keys> {
    const base = baseUrl(environment);
    const cached = keys.get(base);
    if (cached && clock().getTime() - cached.fetchedAt < certificatesLifetimeMs) return cached;
    const list = await json<Array<{ certificate: string; publicKeyId?: string; usage: string[]; validFrom: string; validTo: string }>>(
      environment,
      'GET',
      '/security/public-key-certificates',
    );
    const now = clock().getTime();
    const current = list.filter((entry) => Date.parse(entry.validFrom) <= now && now < Date.parse(entry.validTo));
    const pick = (usage: string) => {
      const found = current.find((entry) => entry.usage.includes(usage));
      if (!found) throw new KsefError('retryable', `KSeF published no current ${usage} certificate.`);
      return found;
    };
    const tokenEntry = pick('KsefTokenEncryption');
    const symmetricEntry = pick('SymmetricKeyEncryption');
    const fresh: Keys = {
      token: publicKeyOfCertificate(tokenEntry.certificate),
      tokenKeyId: tokenEntry.publicKeyId,
      symmetric: publicKeyOfCertificate(symmetricEntry.certificate),
      symmetricKeyId: symmetricEntry.publicKeyId,
      fetchedAt: now,
    };
    keys.set(base, fresh);
    return fresh;
  }

  async function authenticate(environment: KsefEnvironment, nip: string, token: string): Promise<string> {
    const cacheKey = `${baseUrl(environment)}|${nip}|${sha256Base64(token)}`;
    const cached = accessTokens.get(cacheKey);
    if (cached && cached.validUntil - 60_000 > clock().getTime()) return cached.token;
    const { token: tokenKey, tokenKeyId } = await publicKeys(environment);
    const challenge = await json<{ challenge: string; timestampMs: number }>(environment, 'POST', '/auth/challenge');
    const started = await json<{ referenceNumber: string; authenticationToken: { token: string } }>(environment, 'POST', '/auth/ksef-token', {
      json: {
        challenge: challenge.challenge,
        contextIdentifier: { type: 'Nip', value: nip },
        encryptedToken: encryptKsefToken(tokenKey, token, challenge.timestampMs),
        ...(tokenKeyId ? { publicKeyId: tokenKeyId } : {}),
      },
    });
    const bearer = started.authenticationToken.token;
    for (let poll = 1; ; poll++) {
      const status = await json<{ status: { code: number; description: string; details?: string[] } }>(
        environment,
        'GET',
        `/auth/${encodeURIComponent(started.referenceNumber)}`,
        { bearer },
      );
      if (status.status.code === 200) break;
      if (status.status.code === 100 && poll < 30) {
        await sleep(Math.min(500 * poll, 5000));
        continue;
      }
      const kind = status.status.code === 100 || status.status.code >= 500 ? 'retryable' : 'final';
      throw new KsefError(kind, `KSeF refused the token: ${status.status.description}`, { code: status.status.code, details: status.status.details ?? [] });
    }
    const tokens = await json<{ accessToken: { token: string; validUntil: string } }>(environment, 'POST', '/auth/token/redeem', { bearer });
    accessTokens.set(cacheKey, { token: tokens.accessToken.token, validUntil: Date.parse(tokens.accessToken.validUntil) });
    return tokens.accessToken.token;
  }

  /** Runs `work` with an access token; a 401 on a cached token means it expired early: log in once more. */
  async function withAccess<T>(environment: KsefEnvironment, nip: string, token: string, work: (access: string) => Promise<T>): Promise<T> {
    const access = await authenticate(environment, nip, token);
    try {
      return await work(access);
    } catch (error) {
      if (!(error instanceof KsefError) || error.status !== 401) throw error;
      accessTokens.delete(`${baseUrl(environment)}|${nip}|${sha256Base64(token)}`);
      return work(await authenticate(environment, nip, token));
    }
  }

  async function submit(submission: KsefSubmission): Promise<KsefReceipt> {
    const { environment, sellerNip, token } = submission;
    const plain = Buffer.from(submission.xml, 'utf8');
    return withAccess(environment, sellerNip, token, async (access) => {
      const { symmetric, symmetricKeyId } = await publicKeys(environment);
      const sessionKey = newSessionKey();
      const session = await json<{ referenceNumber: string }>(environment, 'POST', '/sessions/online', {
        bearer: access,
        json: {
          formCode: fa3FormCode,
          encryption: {
            encryptedSymmetricKey: rsaOaepEncrypt(symmetric, sessionKey.key).toString('base64'),
            initializationVector: sessionKey.iv.toString('base64'),
            ...(symmetricKeyId ? { publicKeyId: symmetricKeyId } : {}),
          },
        },
      });
      const sessionPath = `/sessions/online/${encodeURIComponent(session.referenceNumber)}`;
      try {
        const encrypted = aesEncrypt(sessionKey, plain);
        const invoiceHash = sha256Base64(plain);
        const sent = await json<{ referenceNumber: string }>(environment, 'POST', `${sessionPath}/invoices`, {
          bearer: access,
          json: {
            invoiceHash,
            invoiceSize: plain.length,
            encryptedInvoiceHash: sha256Base64(encrypted),
            encryptedInvoiceSize: encrypted.length,
            encryptedInvoiceContent: encrypted.toString('base64'),
            offlineMode: submission.offlineMode === true,
          },
        });
        return {
          environment,
          sellerNip,
          sessionReferenceNumber: session.referenceNumber,
          invoiceReferenceNumber: sent.referenceNumber,
          invoiceHash,
          sentAt: clock().toISOString(),
        };
      } finally {
        // One invoice per session: closing lets KSeF finish the session's UPO; a failed close changes nothing sent.
        await call(environment, 'POST', `${sessionPath}/close`, { bearer: access }).catch(() => undefined);
      }
    });
  }

  async function outcome(receipt: KsefReceipt, token: string): Promise<KsefOutcome> {
    const { environment, sellerNip } = receipt;
    const invoicePath = `/sessions/${encodeURIComponent(receipt.sessionReferenceNumber)}/invoices/${encodeURIComponent(receipt.invoiceReferenceNumber)}`;
    return withAccess(environment, sellerNip, token, async (access) => {
      const status = await json<{
        ksefNumber?: string | null;
        acquisitionDate?: string | null;
        status: { code: number; description: string; details?: string[] | null; extensions?: Record<string, string | null> | null };
      }>(environment, 'GET', invoicePath, { bearer: access });
      const { code, description } = status.status;
      // 200 without a number yet is still processing: the number comes with the decision.
      if (code === 100 || code === 150 || (code === 200 && !status.ksefNumber)) return { state: 'processing', code, description };
      if (code === 200 && status.ksefNumber) {
        const upo = await call(environment, 'GET', `${invoicePath}/upo`, { bearer: access, accept: 'application/xml' }).catch((error: unknown) => {
          if (error instanceof KsefError) return undefined;
          throw error;
        });
        return {
          state: 'accepted',
          ksefNumber: status.ksefNumber,
          acquisitionDate: status.acquisitionDate ?? receipt.sentAt,
          upoXml: upo?.text ?? null,
        };
      }
      const details = status.status.details ?? [];
      const duplicateOf = code === 440 ? (status.status.extensions?.originalKsefNumber ?? ksefNumberIn(details)) : undefined;
      const originalSession = status.status.extensions?.originalSessionReferenceNumber;
      const originalUpo =
        duplicateOf && originalSession
          ? await call(environment, 'GET', `/sessions/${encodeURIComponent(originalSession)}/invoices/ksef/${encodeURIComponent(duplicateOf)}/upo`, {
              bearer: access,
              accept: 'application/xml',
            }).catch(() => undefined)
          : undefined;
      return {
        state: 'rejected',
        code,
        description,
        details,
        resend: code === 405 || code >= 500,
        ...(duplicateOf ? { duplicateOf } : {}),
        ...(originalUpo ? { originalUpoXml: originalUpo.text } : {}),
      };
    });
  }

  async function awaitOutcome(receipt: KsefReceipt, token: string, polls = 20): Promise<KsefOutcome> {
    for (let poll = 1; ; poll++) {
      const answer = await outcome(receipt, token);
      if (answer.state !== 'processing' || poll >= polls) return answer;
      await sleep(Math.min(250 * 2 ** (poll - 1), 10_000));
    }
  }

  return { submit, outcome, awaitOutcome };
}

function ksefNumberIn(details: readonly string[]): string | undefined {
  for (const detail of details) {
    const match = /\d{10}-\d{8}-[0-9A-F]{12}-[0-9A-F]{2}/.exec(detail);
    if (match) return match[0];
  }
  return undefined;
}

/** KSeF's error answers, old (`exception.exceptionDetailList`) and new (Problem Details), as a KsefError. */
function failureOf(answer: Answer): KsefError {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    // Outages often answer HTML or nothing: the status alone decides.
  }
  const problems = (body.errors as Array<{ code?: number; description?: string; details?: string[] }> | undefined) ?? [];
  const legacy =
    ((body.exception as { exceptionDetailList?: Array<{ exceptionCode?: number; exceptionDescription?: string; details?: string[] }> } | undefined)
      ?.exceptionDetailList ?? []).map((entry) => ({ code: entry.exceptionCode, description: entry.exceptionDescription, details: entry.details }));
  const limit = body.status as { code?: number; description?: string; details?: string[] } | undefined;
  const first = problems[0] ?? legacy[0];
  const description = first?.description ?? (typeof body.detail === 'string' ? body.detail : undefined) ?? limit?.description ?? `HTTP ${answer.status}`;
  const details = [...(first?.details ?? []), ...(typeof limit === 'object' ? (limit.details ?? []) : [])];
  const extra = { status: answer.status, details, ...(first?.code === undefined ? {} : { code: first.code }) };
  if (answer.status === 429) {
    return new KsefError('retryable', `KSeF's limit was reached: ${description}`, { ...extra, ...retryAfter(answer.headers.get('Retry-After')) });
  }
  if (answer.status >= 500 || answer.status === 408) return new KsefError('retryable', `KSeF is unavailable (HTTP ${answer.status}).`, extra);
  if (answer.status === 401 || answer.status === 403) return new KsefError('final', `KSeF refused access: ${description}`, extra);
  return new KsefError('final', `KSeF refused the request: ${description}`, extra);
}

function retryAfter(header: string | null): { retryAfterMs?: number } {
  if (!header) return {};
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return { retryAfterMs: Math.round(seconds * 1000) };
  const date = Date.parse(header);
  return Number.isNaN(date) ? {} : { retryAfterMs: Math.max(0, date - Date.now()) };
}
