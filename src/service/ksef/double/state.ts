import { createHmac, createPrivateKey, generateKeyPairSync, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { ksefNumberChecksum } from '../gateway.js';

/**
 * What the bundled KSeF double remembers: its keys, the secret its KSeF tokens are signed with, and
 * the invoices it took (so that numbers, duplicates and UPOs survive a restart when a state file is
 * given). Challenges, authentication operations and access tokens live only in memory: a restart
 * logs everyone out, as a KSeF outage would.
 */
export interface StoredInvoice {
  readonly referenceNumber: string;
  readonly sessionReferenceNumber: string;
  readonly ordinalNumber: number;
  readonly sellerNip: string;
  readonly tokenReferenceNumber: string;
  readonly invoiceHash: string;
  readonly invoicingDate: string;
  readonly offlineMode: boolean;
  /** The decrypted FA(3) XML, Base64 (its exact bytes). */
  readonly content: string;
  invoiceNumber: string | null;
  issueDate: string | null;
  kind: string | null;
  status: { code: number; description: string; details?: string[]; extensions?: Record<string, string> };
  ksefNumber: string | null;
  acquisitionDate: string | null;
  upo: string | null;
}

/** An Offline certificate the double issued to a seller (KOD II), by its serial number. */
export interface StoredCertificate {
  /** Hex, upper case, as KSeF prints it. */
  readonly serialNumber: string;
  /** The NIP the certificate was issued to: it signs KOD II for this seller. */
  readonly nip: string;
  readonly certificatePem: string;
  /** When the certificate was revoked, ISO 8601; null while it is in force. */
  revokedAt: string | null;
}

export interface StoredSession {
  readonly referenceNumber: string;
  readonly sellerNip: string;
  readonly tokenReferenceNumber: string;
  readonly key: string;
  readonly iv: string;
  readonly dateCreated: string;
  dateUpdated: string;
  readonly validUntil: string;
  closed: boolean;
  invoices: string[];
}

interface Persisted {
  readonly tokenKey: string;
  readonly symmetricKey: string;
  readonly tokenSecret: string;
  readonly sessions: StoredSession[];
  readonly invoices: StoredInvoice[];
  readonly certificates?: StoredCertificate[];
}

export class DoubleState {
  readonly tokenKey: KeyObject;
  readonly symmetricKey: KeyObject;
  readonly sessions = new Map<string, StoredSession>();
  readonly invoices = new Map<string, StoredInvoice>();
  readonly certificates = new Map<string, StoredCertificate>();
  readonly #tokenSecret: Buffer;
  readonly #file: string | undefined;

  constructor(file?: string) {
    this.#file = file;
    const saved = file ? readSaved(file) : undefined;
    this.tokenKey = saved ? createPrivateKey(saved.tokenKey) : newKey();
    this.symmetricKey = saved ? createPrivateKey(saved.symmetricKey) : newKey();
    this.#tokenSecret = saved ? Buffer.from(saved.tokenSecret, 'base64') : randomBytes(32);
    for (const session of saved?.sessions ?? []) this.sessions.set(session.referenceNumber, session);
    for (const invoice of saved?.invoices ?? []) this.invoices.set(invoice.referenceNumber, invoice);
    for (const certificate of saved?.certificates ?? []) this.certificates.set(certificate.serialNumber, certificate);
    if (!saved) this.save();
  }

  /** A KSeF token for the seller, in KSeF's shape `{reference}|nip-{NIP}|{secret}`. */
  issueToken(nip: string, now: Date): string {
    const reference = referenceNumber(now, 'EC');
    return `${reference}|nip-${nip}|${this.#tokenMac(reference, nip)}`;
  }

  /** The token's reference and NIP when this double issued it; undefined otherwise. */
  readToken(token: string): { reference: string; nip: string } | undefined {
    const match = /^(\d{8}-[0-9A-Z]{2}-[0-9A-F]{10}-[0-9A-F]{10}-[0-9A-F]{2})\|nip-(\d{10})\|([0-9a-f]{64})$/.exec(token);
    if (!match) return undefined;
    const [, reference = '', nip = '', mac = ''] = match;
    const expected = Buffer.from(this.#tokenMac(reference, nip), 'hex');
    return timingSafeEqual(expected, Buffer.from(mac, 'hex')) ? { reference, nip } : undefined;
  }

  #tokenMac(reference: string, nip: string): string {
    return createHmac('sha256', this.#tokenSecret).update(`${reference}|${nip}`).digest('hex');
  }

  /** The invoice already in KSeF under the same seller, kind and number (KSeF's duplicate rule). */
  original(sellerNip: string, kind: string, invoiceNumber: string): StoredInvoice | undefined {
    for (const invoice of this.invoices.values()) {
      if (invoice.ksefNumber && invoice.sellerNip === sellerNip && invoice.kind === kind && invoice.invoiceNumber === invoiceNumber) {
        return invoice;
      }
    }
    return undefined;
  }

  byKsefNumber(ksefNumber: string): StoredInvoice | undefined {
    for (const invoice of this.invoices.values()) if (invoice.ksefNumber === ksefNumber) return invoice;
    return undefined;
  }

  save(): void {
    if (!this.#file) return;
    const persisted: Persisted = {
      tokenKey: this.tokenKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      symmetricKey: this.symmetricKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      tokenSecret: this.#tokenSecret.toString('base64'),
      sessions: [...this.sessions.values()],
      invoices: [...this.invoices.values()],
      certificates: [...this.certificates.values()],
    };
    const temporary = `${this.#file}.tmp`;
    writeFileSync(temporary, JSON.stringify(persisted), { mode: 0o600 });
    renameSync(temporary, this.#file);
  }
}

function readSaved(file: string): Persisted | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Persisted;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function newKey(): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

/** KSeF's reference numbers: `YYYYMMDD-XX-HHHHHHHHHH-HHHHHHHHHH-CC`, 36 characters. */
export function referenceNumber(now: Date, kind: string): string {
  const hex = randomBytes(10).toString('hex').toUpperCase();
  const first = `${now.toISOString().slice(0, 10).replaceAll('-', '')}-${kind}-${hex.slice(0, 10)}-${hex.slice(10)}`;
  return `${first}-${ksefNumberChecksum(first)}`;
}
