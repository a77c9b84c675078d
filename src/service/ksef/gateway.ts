import { createHash } from 'node:crypto';

/**
 * The boundary between the service and KSeF, the national e-invoicing system: what the service asks
 * of KSeF (send one FA(3) document, read what became of it) and the pure rules both sides share
 * (environments' hosts, KSeF numbers, the KOD I and KOD II verification links).
 */

export const ksefEnvironments = ['local', 'test', 'demo', 'production'] as const;
export type KsefEnvironment = (typeof ksefEnvironments)[number];

export interface KsefHosts {
  /** The API 2.0 base, without a trailing slash: `https://api.ksef.mf.gov.pl/v2`. */
  readonly apiBaseUrl: string;
  /** The base of the QR verification links, without a trailing slash: `https://qr.ksef.mf.gov.pl`. */
  readonly qrBaseUrl: string;
}

const officialHosts: Record<Exclude<KsefEnvironment, 'local'>, KsefHosts> = {
  test: { apiBaseUrl: 'https://api-test.ksef.mf.gov.pl/v2', qrBaseUrl: 'https://qr-test.ksef.mf.gov.pl' },
  demo: { apiBaseUrl: 'https://api-demo.ksef.mf.gov.pl/v2', qrBaseUrl: 'https://qr-demo.ksef.mf.gov.pl' },
  production: { apiBaseUrl: 'https://api.ksef.mf.gov.pl/v2', qrBaseUrl: 'https://qr.ksef.mf.gov.pl' },
};

/** The paths under which the bundled test double serves the API and the verification pages. */
export const localApiPath = '/v2';
export const localQrPath = '/qr';

/**
 * Each environment's hosts. `local` is the bundled test double, whose origin (`http://127.0.0.1:PORT`)
 * is only known once it listens: pass it, or `local` has no hosts.
 */
export function ksefHosts(environment: KsefEnvironment, localOrigin?: string): KsefHosts {
  if (environment !== 'local') return officialHosts[environment];
  if (!localOrigin) throw new KsefError('final', 'The local KSeF is not running (start the service with --ksef-local).');
  const origin = localOrigin.replace(/\/+$/, '');
  return { apiBaseUrl: `${origin}${localApiPath}`, qrBaseUrl: `${origin}${localQrPath}` };
}

/** Outside production KSeF's documents have no legal force: invoices carry a test mark. */
export function isTestEnvironment(environment: KsefEnvironment): boolean {
  return environment !== 'production';
}

/** One FA(3) document to send for one seller. */
export interface KsefSubmission {
  readonly environment: KsefEnvironment;
  /** The seller's NIP (10 digits), the login context. */
  readonly sellerNip: string;
  /** The KSeF token the seller generated for the service. Never logged. */
  readonly token: string;
  /** The FA(3) XML exactly as it is to be kept: its SHA-256 is the invoice's hash in KSeF and in KOD I. */
  readonly xml: string;
  /** OFFLINE24 and the other offline modes: the invoice was issued before it reaches KSeF. */
  readonly offlineMode?: boolean;
}

/** What KSeF answered when it took a document: enough to ask for its outcome, even after a restart. */
export interface KsefReceipt {
  readonly environment: KsefEnvironment;
  readonly sellerNip: string;
  readonly sessionReferenceNumber: string;
  readonly invoiceReferenceNumber: string;
  /** SHA-256 of the sent XML, Base64 (KSeF's form). */
  readonly invoiceHash: string;
  /** When it was sent, ISO 8601. */
  readonly sentAt: string;
}

export type KsefOutcome =
  | { readonly state: 'processing'; readonly code: number; readonly description: string }
  | {
      readonly state: 'accepted';
      readonly ksefNumber: string;
      /** When KSeF assigned the number, ISO 8601 (`acquisitionDate`). */
      readonly acquisitionDate: string;
      /** The invoice's UPO (official receipt) XML; null while KSeF has not produced it yet. */
      readonly upoXml: string | null;
    }
  | {
      readonly state: 'rejected';
      readonly code: number;
      readonly description: string;
      readonly details: readonly string[];
      /** KSeF dropped it for its own reasons (405, 500, 550): sending the same document again may succeed. */
      readonly resend: boolean;
      /** Code 440: the same seller, kind and number is already in KSeF under this number. */
      readonly duplicateOf?: string;
      /** Code 440: the original's UPO, when KSeF names the original's session and still has it. */
      readonly originalUpoXml?: string;
    };

export interface KsefGateway {
  /** Authenticates, sends the document in an online session and answers KSeF's references. */
  submit(submission: KsefSubmission): Promise<KsefReceipt>;
  /** Reads the document's status; with a KSeF number also its UPO. */
  outcome(receipt: KsefReceipt, token: string): Promise<KsefOutcome>;
}

export type KsefFailureKind =
  /** Limits (429), outages (5xx), the network: the same call may succeed later. */
  | 'retryable'
  /** Invalid document, token refused, bad request: repeating it will not help. */
  | 'final'
  /** KSeF already holds this invoice (code 440). The client reports 440 as a rejected outcome with `duplicateOf`. */
  | 'duplicate';

export class KsefError extends Error {
  override readonly name = 'KsefError';
  readonly kind: KsefFailureKind;
  /** The HTTP status KSeF answered, if any. */
  readonly status: number | undefined;
  /** KSeF's own code (`exceptionCode` or a status code such as 440, 450). */
  readonly code: number | undefined;
  readonly details: readonly string[];
  /** From `Retry-After`, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** For duplicates: the KSeF number of the invoice already in KSeF, when KSeF names it. */
  readonly ksefNumber: string | undefined;

  constructor(
    kind: KsefFailureKind,
    message: string,
    extra: {
      status?: number;
      code?: number;
      details?: readonly string[];
      retryAfterMs?: number;
      ksefNumber?: string;
      cause?: unknown;
    } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.kind = kind;
    this.status = extra.status;
    this.code = extra.code;
    this.details = extra.details ?? [];
    this.retryAfterMs = extra.retryAfterMs;
    this.ksefNumber = extra.ksefNumber;
  }

  get retryable(): boolean {
    return this.kind === 'retryable';
  }
}

/** CRC-8, polynomial 0x07, initial value 0, over the UTF-8 bytes, as two upper-case hex digits. */
export function ksefNumberChecksum(first32: string): string {
  let crc = 0;
  for (const byte of Buffer.from(first32, 'utf8')) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc.toString(16).toUpperCase().padStart(2, '0');
}

const ksefNumberShape = /^(\d{10})-(\d{4})(\d{2})(\d{2})-([0-9A-F]{12})-([0-9A-F]{2})$/;

/** A KSeF number: 35 characters, `NIP-YYYYMMDD-XXXXXXXXXXXX-CC`, whose CRC-8 holds. */
export function isValidKsefNumber(value: string): boolean {
  const match = ksefNumberShape.exec(value);
  if (!match) return false;
  const [, , year, month, day] = match;
  const date = new Date(`${year}-${month}-${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== `${year}-${month}-${day}`) return false;
  return ksefNumberChecksum(value.slice(0, 32)) === value.slice(33);
}

/** Builds a KSeF number from its parts (the double assigns them; tests check them). */
export function ksefNumber(sellerNip: string, acquired: Date, technical: string): string {
  const date = acquired.toISOString().slice(0, 10).replaceAll('-', '');
  const first32 = `${sellerNip}-${date}-${technical.toUpperCase()}`;
  return `${first32}-${ksefNumberChecksum(first32)}`;
}

/** SHA-256 of a document's bytes, Base64: KSeF's `invoiceHash`. */
export function sha256Base64(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('base64');
}

/** SHA-256 of a document's bytes, Base64URL without padding: the hash in KOD I and KOD II. */
export function sha256Base64Url(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('base64url');
}

/**
 * KOD I: `{qr}/invoice/{seller NIP}/{issue date DD-MM-YYYY}/{SHA-256 of the sent XML, Base64URL}`.
 * `issueDate` is the invoice's `P_1` (`YYYY-MM-DD`); `xml` is exactly what was sent.
 */
export function verificationLink(input: {
  readonly environment: KsefEnvironment;
  readonly sellerNip: string;
  readonly issueDate: string;
  readonly xml: string | Uint8Array;
  /** The double's origin, for `local`. */
  readonly localOrigin?: string;
}): string {
  const { qrBaseUrl } = ksefHosts(input.environment, input.localOrigin);
  return `${qrBaseUrl}/invoice/${input.sellerNip}/${ddmmyyyy(input.issueDate)}/${sha256Base64Url(input.xml)}`;
}

function ddmmyyyy(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) throw new RangeError(`Not a date: ${isoDate}`);
  return `${match[3]}-${match[2]}-${match[1]}`;
}
