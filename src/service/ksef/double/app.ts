import { constants, generateKeyPairSync, randomBytes, verify, X509Certificate } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { Hono, type Context } from 'hono';
import { aesDecrypt, rsaOaepDecrypt } from '../crypto.js';
import { ksefNumber, localApiPath, localQrPath, sha256Base64, sha256Base64Url } from '../gateway.js';

/** Where the double hands out KSeF tokens (`POST {origin}/local/tokens {"nip": "…"}`). */
export const localTokensPath = '/local';
import { validateFa3 } from '../schemas.js';
import { selfSignedCertificate } from './certificate.js';
import { DoubleState, referenceNumber, type StoredCertificate, type StoredInvoice, type StoredSession } from './state.js';
import { upoDocument } from './upo.js';
import { certificatePage, type CertificateCheck, verificationPage } from './verification-page.js';

/** A failure the double answers instead of the next matching request: KSeF's limits and outages, on demand. */
export interface InjectedFailure {
  readonly status: number;
  /** `Retry-After`, in seconds, for 429. */
  readonly retryAfterSeconds?: number;
  /** Only requests whose path (after `/v2`) starts with this. */
  readonly pathPrefix?: string;
  /** How many requests fail; one by default. */
  times?: number;
}

export interface KsefDoubleOptions {
  /** Keeps keys, token secret and invoices in this JSON file across restarts; memory only without it. */
  readonly stateFile?: string;
  readonly clock?: () => Date;
}

export interface KsefDouble {
  readonly app: Hono;
  /** A KSeF token this double accepts for the seller's NIP. */
  issueToken(nip: string): string;
  /**
   * An Offline certificate for the seller's NIP (KOD II), registered with the double: its
   * verification page knows it. RSA 2048 (default) or EC P-256; valid for two years from now.
   */
  issueOfflineCertificate(nip: string, options?: OfflineCertificateOptions): IssuedCertificate;
  /** Revokes a certificate the double issued: KOD II signed with it no longer verifies. */
  revokeCertificate(serialNumber: string): void;
  /** Answers the next matching requests with a failure (429 with Retry-After, 503...). */
  failNext(failure: InjectedFailure): void;
  /** The next `reads` readings of an authentication's status answer 100 (in progress), as KSeF's may. */
  authenticateSlowly(reads: number): void;
  /** Keeps sent invoices at "processing" until the returned function is called. */
  holdProcessing(): () => void;
  /** Resolves when every invoice sent so far is processed. */
  settled(): Promise<void>;
  /** Every request the double answered, method and path (tests check the client's conversation). */
  readonly requests: readonly string[];
}

export interface OfflineCertificateOptions {
  readonly keyType?: 'rsa' | 'ec';
  readonly validFrom?: Date;
  readonly validTo?: Date;
}

/** A certificate with its private key, both PEM, as a seller downloads them from KSeF. */
export interface IssuedCertificate {
  readonly serialNumber: string;
  readonly certificatePem: string;
  readonly privateKeyPem: string;
}

const fa3FormCode = { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' } as const;
const challengeLifetimeMs = 10 * 60_000;
const accessTokenLifetimeMs = 15 * 60_000;
const sessionLifetimeMs = 12 * 3600_000;

interface AuthOperation {
  readonly referenceNumber: string;
  readonly authenticationToken: string;
  readonly nip: string;
  readonly tokenReferenceNumber: string;
  readonly startDate: string;
  readonly status: { code: number; description: string; details?: string[] };
  redeemed: boolean;
}

interface Access {
  readonly nip: string;
  readonly tokenReferenceNumber: string;
  readonly validUntil: number;
}

const xml = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, parseTagValue: false });

export function createKsefDouble(options: KsefDoubleOptions = {}): KsefDouble {
  const clock = options.clock ?? (() => new Date());
  const state = new DoubleState(options.stateFile);
  const challenges = new Map<string, { timestampMs: number }>();
  const operations = new Map<string, AuthOperation>();
  const accessTokens = new Map<string, Access>();
  const failures: InjectedFailure[] = [];
  const processing = new Set<Promise<void>>();
  const requests: string[] = [];
  let held: Promise<void> | undefined;
  let slowAuthenticationReads = 0;

  const certificates = (() => {
    const validFrom = new Date(Date.UTC(2025, 0, 1));
    const validTo = new Date(Date.UTC(2035, 0, 1));
    const make = (key: typeof state.tokenKey, usage: string) => {
      const der = selfSignedCertificate({ privateKey: key, commonName: `Local KSeF ${usage}`, validFrom, validTo });
      return {
        certificate: der.toString('base64'),
        certificateId: sha256Base64(der),
        publicKeyId: sha256Base64(new X509Certificate(der).publicKey.export({ format: 'der', type: 'spki' })),
        validFrom: validFrom.toISOString(),
        validTo: validTo.toISOString(),
        usage: [usage],
      };
    };
    return [make(state.tokenKey, 'KsefTokenEncryption'), make(state.symmetricKey, 'SymmetricKeyEncryption')];
  })();

  const api = new Hono();

  api.use('*', async (c, next) => {
    requests.push(`${c.req.method} ${c.req.path.slice(localApiPath.length)}`);
    const path = c.req.path.slice(localApiPath.length);
    const index = failures.findIndex((failure) => !failure.pathPrefix || path.startsWith(failure.pathPrefix));
    const failure = failures[index];
    if (failure) {
      failure.times = (failure.times ?? 1) - 1;
      if (failure.times <= 0) failures.splice(index, 1);
      if (failure.status === 429) {
        c.header('Retry-After', String(failure.retryAfterSeconds ?? 1));
        return c.json({ status: { code: 429, description: 'Too Many Requests', details: ['Przekroczono limit żądań.'] } }, 429);
      }
      return c.json({ title: 'Service Unavailable', status: failure.status }, failure.status as 500);
    }
    await next();
  });

  api.get('/security/public-key-certificates', (c) => c.json(certificates));

  api.post('/auth/challenge', (c) => {
    const now = clock();
    const challenge = referenceNumber(now, 'CR');
    challenges.set(challenge, { timestampMs: now.getTime() });
    return c.json({ challenge, timestamp: now.toISOString(), timestampMs: now.getTime(), clientIp: '127.0.0.1' });
  });

  api.post('/auth/ksef-token', async (c) => {
    const body = await jsonBody(c);
    const challenge = typeof body?.challenge === 'string' ? body.challenge : '';
    const context = body?.contextIdentifier as { type?: unknown; value?: unknown } | undefined;
    const encrypted = typeof body?.encryptedToken === 'string' ? body.encryptedToken : '';
    if (!challenge || !encrypted || context?.type !== 'Nip' || typeof context.value !== 'string' || !/^\d{10}$/.test(context.value)) {
      return badRequest(c, 21405, 'Błąd walidacji danych wejściowych.', ['challenge, contextIdentifier (Nip) and encryptedToken are required.']);
    }
    if (body?.publicKeyId !== undefined && body.publicKeyId !== null && body.publicKeyId !== certificates[0]?.publicKeyId) {
      return unknownKey(c, body.publicKeyId);
    }
    const issued = challenges.get(challenge);
    if (!issued || clock().getTime() - issued.timestampMs > challengeLifetimeMs) {
      return badRequest(c, 21111, 'Nieprawidłowe wyzwanie autoryzacyjne.');
    }
    challenges.delete(challenge);
    const now = clock();
    const status = readEncryptedToken(encrypted, issued.timestampMs, context.value);
    const operation: AuthOperation = {
      referenceNumber: referenceNumber(now, 'AU'),
      authenticationToken: randomBytes(32).toString('base64url'),
      nip: context.value,
      tokenReferenceNumber: status.tokenReferenceNumber ?? '',
      startDate: now.toISOString(),
      status: status.status,
      redeemed: false,
    };
    operations.set(operation.referenceNumber, operation);
    return c.json(
      {
        referenceNumber: operation.referenceNumber,
        authenticationToken: { token: operation.authenticationToken, validUntil: new Date(now.getTime() + challengeLifetimeMs).toISOString() },
      },
      202,
    );
  });

  function readEncryptedToken(
    encrypted: string,
    timestampMs: number,
    nip: string,
  ): { status: AuthOperation['status']; tokenReferenceNumber?: string } {
    const failed = (detail: string) => ({
      status: { code: 450, description: 'Uwierzytelnianie zakończone niepowodzeniem z powodu błędnego tokenu', details: [detail] },
    });
    let plain: string;
    try {
      plain = rsaOaepDecrypt(state.tokenKey, Buffer.from(encrypted, 'base64')).toString('utf8');
    } catch {
      return failed('Nieprawidłowy token');
    }
    const separator = plain.lastIndexOf('|');
    if (plain.slice(separator + 1) !== String(timestampMs)) return failed('Nieprawidłowy czas tokena');
    const token = state.readToken(plain.slice(0, separator));
    if (!token) return failed('Nieprawidłowy token');
    if (token.nip !== nip) {
      return { status: { code: 415, description: 'Uwierzytelnianie zakończone niepowodzeniem', details: ['Brak przypisanych uprawnień'] } };
    }
    return { status: { code: 200, description: 'Uwierzytelnianie zakończone sukcesem' }, tokenReferenceNumber: token.reference };
  }

  function operationOf(c: Context): AuthOperation | undefined {
    const bearer = bearerOf(c);
    for (const operation of operations.values()) if (operation.authenticationToken === bearer) return operation;
    return undefined;
  }

  api.get('/auth/:referenceNumber', (c) => {
    const operation = operationOf(c);
    if (!operation) return unauthorized(c);
    if (operation.referenceNumber !== c.req.param('referenceNumber')) {
      return badRequest(c, 21304, 'Brak uwierzytelnienia.', [`Operacja uwierzytelniania o numerze referencyjnym ${c.req.param('referenceNumber')} nie została znaleziona.`]);
    }
    const inProgress = slowAuthenticationReads > 0;
    if (inProgress) slowAuthenticationReads -= 1;
    return c.json({
      startDate: operation.startDate,
      authenticationMethod: 'Token',
      authenticationMethodInfo: { category: 'Token', code: 'token.ksef', displayName: 'Token KSeF' },
      status: inProgress ? { code: 100, description: 'Uwierzytelnianie w toku' } : operation.status,
      isTokenRedeemed: operation.redeemed,
    });
  });

  api.post('/auth/token/redeem', (c) => {
    const operation = operationOf(c);
    if (!operation) return unauthorized(c);
    if (operation.redeemed) {
      return badRequest(c, 21301, 'Brak autoryzacji.', [`Tokeny dla operacji uwierzytelniania ${operation.referenceNumber} zostały już pobrane.`]);
    }
    if (operation.status.code !== 200) {
      return badRequest(c, 21301, 'Brak autoryzacji.', [`Status uwierzytelniania (${operation.status.code}) nie pozwala na pobranie tokenów.`]);
    }
    operation.redeemed = true;
    const now = clock().getTime();
    const accessToken = randomBytes(32).toString('base64url');
    accessTokens.set(accessToken, { nip: operation.nip, tokenReferenceNumber: operation.tokenReferenceNumber, validUntil: now + accessTokenLifetimeMs });
    return c.json({
      accessToken: { token: accessToken, validUntil: new Date(now + accessTokenLifetimeMs).toISOString() },
      refreshToken: { token: randomBytes(32).toString('base64url'), validUntil: new Date(now + 7 * 86_400_000).toISOString() },
    });
  });

  function accessOf(c: Context): Access | undefined {
    const access = accessTokens.get(bearerOf(c) ?? '');
    return access && access.validUntil > clock().getTime() ? access : undefined;
  }

  function sessionOf(c: Context, access: Access): StoredSession | undefined {
    const session = state.sessions.get(c.req.param('referenceNumber') ?? '');
    return session && session.sellerNip === access.nip ? session : undefined;
  }

  api.post('/sessions/online', async (c) => {
    const access = accessOf(c);
    if (!access) return unauthorized(c);
    const body = await jsonBody(c);
    const formCode = body?.formCode as Record<string, unknown> | undefined;
    const encryption = body?.encryption as Record<string, unknown> | undefined;
    if (
      formCode?.systemCode !== fa3FormCode.systemCode ||
      formCode.schemaVersion !== fa3FormCode.schemaVersion ||
      formCode.value !== fa3FormCode.value
    ) {
      return badRequest(c, 21405, 'Błąd walidacji danych wejściowych.', ['formCode: this KSeF accepts FA (3) 1-0E FA.']);
    }
    if (typeof encryption?.encryptedSymmetricKey !== 'string' || typeof encryption.initializationVector !== 'string') {
      return badRequest(c, 21405, 'Błąd walidacji danych wejściowych.', ['encryption.encryptedSymmetricKey and encryption.initializationVector are required.']);
    }
    if (encryption.publicKeyId !== undefined && encryption.publicKeyId !== null && encryption.publicKeyId !== certificates[1]?.publicKeyId) {
      return unknownKey(c, encryption.publicKeyId);
    }
    let key: Buffer;
    const iv = Buffer.from(encryption.initializationVector, 'base64');
    try {
      key = rsaOaepDecrypt(state.symmetricKey, Buffer.from(encryption.encryptedSymmetricKey, 'base64'));
    } catch {
      key = Buffer.alloc(0);
    }
    if (key.length !== 32 || iv.length !== 16) {
      return badRequest(c, 21405, 'Błąd walidacji danych wejściowych.', ['Błąd odszyfrowania dostarczonego klucza.']);
    }
    const now = clock();
    const session: StoredSession = {
      referenceNumber: referenceNumber(now, 'SO'),
      sellerNip: access.nip,
      tokenReferenceNumber: access.tokenReferenceNumber,
      key: key.toString('base64'),
      iv: iv.toString('base64'),
      dateCreated: now.toISOString(),
      dateUpdated: now.toISOString(),
      validUntil: new Date(now.getTime() + sessionLifetimeMs).toISOString(),
      closed: false,
      invoices: [],
    };
    state.sessions.set(session.referenceNumber, session);
    state.save();
    return c.json({ referenceNumber: session.referenceNumber, validUntil: session.validUntil }, 201);
  });

  api.post('/sessions/online/:referenceNumber/invoices', async (c) => {
    const access = accessOf(c);
    if (!access) return unauthorized(c);
    const session = sessionOf(c, access);
    if (!session) return noSession(c);
    if (session.closed) return badRequest(c, 21180, 'Status sesji nie pozwala na wykonanie operacji.', ['Status sesji 170 uniemożliwia wysyłkę faktur.']);
    const body = await jsonBody(c);
    const { invoiceHash, invoiceSize, encryptedInvoiceHash, encryptedInvoiceSize, encryptedInvoiceContent } = body ?? {};
    if (
      typeof invoiceHash !== 'string' ||
      typeof encryptedInvoiceHash !== 'string' ||
      typeof encryptedInvoiceContent !== 'string' ||
      !Number.isSafeInteger(invoiceSize) ||
      !Number.isSafeInteger(encryptedInvoiceSize)
    ) {
      return badRequest(c, 21405, 'Błąd walidacji danych wejściowych.', [
        'invoiceHash, invoiceSize, encryptedInvoiceHash, encryptedInvoiceSize and encryptedInvoiceContent are required.',
      ]);
    }
    const encrypted = Buffer.from(encryptedInvoiceContent, 'base64');
    if (encrypted.length !== encryptedInvoiceSize) return badRequest(c, 21402, 'Nieprawidłowy rozmiar pliku.', ['Długość treści nie zgadza się z rozmiarem pliku.']);
    if (sha256Base64(encrypted) !== encryptedInvoiceHash) return badRequest(c, 21403, 'Nieprawidłowy skrót pliku.', ['Skrót treści nie zgadza się ze skrótem pliku.']);
    const now = clock();
    const invoice: StoredInvoice = {
      referenceNumber: referenceNumber(now, 'EE'),
      sessionReferenceNumber: session.referenceNumber,
      ordinalNumber: session.invoices.length + 1,
      sellerNip: session.sellerNip,
      tokenReferenceNumber: session.tokenReferenceNumber,
      invoiceHash,
      invoicingDate: now.toISOString(),
      offlineMode: body?.offlineMode === true,
      content: '',
      invoiceNumber: null,
      issueDate: null,
      kind: null,
      status: { code: 150, description: 'Trwa przetwarzanie' },
      ksefNumber: null,
      acquisitionDate: null,
      upo: null,
    };
    let plain: Buffer | undefined;
    try {
      plain = aesDecrypt({ key: Buffer.from(session.key, 'base64'), iv: Buffer.from(session.iv, 'base64') }, encrypted);
    } catch {
      invoice.status = { code: 435, description: 'Błąd odszyfrowania pliku' };
    }
    const stored: StoredInvoice = plain ? { ...invoice, content: plain.toString('base64') } : invoice;
    state.invoices.set(stored.referenceNumber, stored);
    session.invoices.push(stored.referenceNumber);
    session.dateUpdated = now.toISOString();
    state.save();
    if (plain) track(processInvoice(stored, plain, Number(invoiceSize)));
    return c.json({ referenceNumber: stored.referenceNumber }, 202);
  });

  function track(work: Promise<void>): void {
    processing.add(work);
    void work.finally(() => processing.delete(work));
  }

  async function processInvoice(invoice: StoredInvoice, plain: Buffer, declaredSize: number): Promise<void> {
    await held;
    const reject = (code: number, description: string, details?: string[], extensions?: Record<string, string>) => {
      invoice.status = { code, description, ...(details ? { details } : {}), ...(extensions ? { extensions } : {}) };
    };
    if (plain.length !== declaredSize || sha256Base64(plain) !== invoice.invoiceHash) {
      reject(430, 'Błąd weryfikacji pliku faktury', ['Skrót lub rozmiar pliku nie zgadza się z odszyfrowaną treścią.']);
    } else if (plain[0] === 0xef && plain[1] === 0xbb && plain[2] === 0xbf) {
      reject(430, 'Błąd weryfikacji pliku faktury', ['Plik faktury nie może zaczynać się znacznikiem BOM.']);
    } else {
      const validation = await validateFa3(plain).catch((error: unknown) => ({ valid: false, errors: [String((error as Error).message).split('\n')[0] ?? ''] }));
      if (!validation.valid) reject(450, 'Błąd weryfikacji semantyki dokumentu faktury', validation.errors.slice(0, 20));
      else checkMeaning(invoice, plain, reject);
    }
    if (invoice.status.code === 150) {
      const now = clock();
      invoice.ksefNumber = ksefNumber(invoice.sellerNip, now, randomBytes(6).toString('hex'));
      invoice.acquisitionDate = now.toISOString();
      invoice.status = { code: 200, description: 'Sukces' };
      invoice.upo = upoDocument(invoice);
    }
    state.save();
  }

  function checkMeaning(
    invoice: StoredInvoice,
    plain: Buffer,
    reject: (code: number, description: string, details?: string[], extensions?: Record<string, string>) => void,
  ): void {
    const document = xml.parse(plain.toString('utf8')) as { Faktura?: { Podmiot1?: { DaneIdentyfikacyjne?: { NIP?: string } }; Fa?: Record<string, unknown> } };
    const fa = document.Faktura?.Fa ?? {};
    invoice.invoiceNumber = String(fa.P_2 ?? '');
    invoice.issueDate = String(fa.P_1 ?? '');
    invoice.kind = String(fa.RodzajFaktury ?? '');
    const seller = String(document.Faktura?.Podmiot1?.DaneIdentyfikacyjne?.NIP ?? '');
    if (seller !== invoice.sellerNip) {
      reject(410, 'Nieprawidłowy zakres uprawnień', [`NIP sprzedawcy ${seller} nie odpowiada kontekstowi ${invoice.sellerNip}.`]);
      return;
    }
    if (invoice.issueDate > clock().toISOString().slice(0, 10)) {
      reject(450, 'Błąd weryfikacji semantyki dokumentu faktury', ['Data wystawienia faktury (P_1) nie może być późniejsza niż data jej przyjęcia.']);
      return;
    }
    const original = state.original(invoice.sellerNip, invoice.kind, invoice.invoiceNumber);
    if (original?.ksefNumber) {
      reject(
        440,
        'Duplikat faktury',
        [`Duplikat faktury. Faktura o numerze KSeF: ${original.ksefNumber} została już prawidłowo przesłana do systemu w sesji: ${original.sessionReferenceNumber}`],
        { originalSessionReferenceNumber: original.sessionReferenceNumber, originalKsefNumber: original.ksefNumber },
      );
    }
  }

  api.post('/sessions/online/:referenceNumber/close', (c) => {
    const access = accessOf(c);
    if (!access) return unauthorized(c);
    const session = sessionOf(c, access);
    if (!session) return noSession(c);
    session.closed = true;
    session.dateUpdated = clock().toISOString();
    state.save();
    return c.body(null, 204);
  });

  api.get('/sessions/:referenceNumber', (c) => {
    const access = accessOf(c);
    if (!access) return unauthorized(c);
    const session = sessionOf(c, access);
    if (!session) return badRequest(c, 21405, 'Błąd walidacji danych wejściowych.', ['Sesja nie została odnaleziona.']);
    const invoices = session.invoices.map((reference) => state.invoices.get(reference)).filter((invoice) => invoice !== undefined);
    const done = invoices.every((invoice) => invoice.status.code >= 200);
    const successful = invoices.filter((invoice) => invoice.status.code === 200).length;
    const status = !session.closed
      ? { code: 100, description: 'Sesja interaktywna otwarta' }
      : !done
        ? { code: 170, description: 'Sesja interaktywna zamknięta' }
        : successful > 0
          ? { code: 200, description: 'Sesja interaktywna przetworzona pomyślnie' }
          : invoices.length === 0
            ? { code: 440, description: 'Sesja anulowana', details: ['Nie przesłano faktur'] }
            : { code: 445, description: 'Błąd weryfikacji, brak poprawnych faktur' };
    return c.json({
      status,
      dateCreated: session.dateCreated,
      dateUpdated: session.dateUpdated,
      validUntil: session.validUntil,
      invoiceCount: invoices.length,
      successfulInvoiceCount: successful,
      failedInvoiceCount: invoices.filter((invoice) => invoice.status.code >= 400).length,
    });
  });

  function invoiceOf(c: Context, access: Access): StoredInvoice | undefined {
    const session = sessionOf(c, access);
    const invoice = state.invoices.get(c.req.param('invoiceReferenceNumber') ?? '');
    return session && invoice?.sessionReferenceNumber === session.referenceNumber ? invoice : undefined;
  }

  const noInvoice = (c: Context) =>
    badRequest(c, 21405, 'Błąd walidacji danych wejściowych.', [`Faktura ${c.req.param('invoiceReferenceNumber') ?? ''} nie została odnaleziona w sesji.`]);

  api.get('/sessions/:referenceNumber/invoices/:invoiceReferenceNumber', (c) => {
    const access = accessOf(c);
    if (!access) return unauthorized(c);
    const invoice = invoiceOf(c, access);
    if (!invoice) return noInvoice(c);
    return c.json({
      ordinalNumber: invoice.ordinalNumber,
      ...(invoice.invoiceNumber ? { invoiceNumber: invoice.invoiceNumber } : {}),
      ...(invoice.ksefNumber ? { ksefNumber: invoice.ksefNumber } : {}),
      referenceNumber: invoice.referenceNumber,
      invoiceHash: invoice.invoiceHash,
      ...(invoice.acquisitionDate ? { acquisitionDate: invoice.acquisitionDate } : {}),
      invoicingDate: invoice.invoicingDate,
      invoicingMode: invoice.offlineMode ? 'Offline' : 'Online',
      status: invoice.status,
    });
  });

  api.get('/sessions/:referenceNumber/invoices/:invoiceReferenceNumber/upo', (c) => {
    const access = accessOf(c);
    if (!access) return unauthorized(c);
    const invoice = invoiceOf(c, access);
    if (!invoice?.upo) return noInvoice(c);
    return upoAnswer(c, invoice.upo);
  });

  api.get('/sessions/:referenceNumber/invoices/ksef/:ksefNumber/upo', (c) => {
    const access = accessOf(c);
    if (!access) return unauthorized(c);
    const invoice = state.byKsefNumber(c.req.param('ksefNumber'));
    if (!invoice?.upo || invoice.sessionReferenceNumber !== c.req.param('referenceNumber') || invoice.sellerNip !== access.nip) {
      return badRequest(c, 21405, 'Błąd walidacji danych wejściowych.', [`Faktura ${c.req.param('ksefNumber')} nie została odnaleziona w sesji.`]);
    }
    return upoAnswer(c, invoice.upo);
  });

  api.get('/invoices/ksef/:ksefNumber', (c) => {
    const access = accessOf(c);
    if (!access) return unauthorized(c);
    const invoice = state.byKsefNumber(c.req.param('ksefNumber'));
    if (!invoice || invoice.sellerNip !== access.nip) {
      return badRequest(c, 21405, 'Błąd walidacji danych wejściowych.', [`Faktura ${c.req.param('ksefNumber')} nie została odnaleziona.`]);
    }
    return c.body(Buffer.from(invoice.content, 'base64').toString('utf8'), 200, { 'Content-Type': 'application/xml' });
  });

  const qr = new Hono();
  qr.get('/invoice/:nip/:date/:hash', (c) => {
    const { nip, date, hash } = c.req.param();
    const found = [...state.invoices.values()].find(
      (invoice) =>
        invoice.ksefNumber !== null &&
        invoice.sellerNip === nip &&
        sha256Base64Url(Buffer.from(invoice.content, 'base64')) === hash &&
        invoice.issueDate?.split('-').reverse().join('-') === date,
    );
    const english = /^en\b/i.test(c.req.header('Accept-Language') ?? '');
    return c.html(verificationPage(found, { nip, date, english }), found ? 200 : 404);
  });

  // KOD II: the issuer's certificate, its right to invoice for the seller, and the link's signature.
  qr.get('/certificate/:contextType/:context/:nip/:serial/:hash/:signature', (c) => {
    const { contextType, context, nip, serial, hash, signature } = c.req.param();
    const url = new URL(c.req.url);
    const signed = `${url.host}${url.pathname.slice(0, url.pathname.lastIndexOf('/'))}`;
    const check = checkCertificateLink(state.certificates.get(serial.toUpperCase()), { contextType, context, nip, signed, signature }, clock());
    const invoice = [...state.invoices.values()].find(
      (stored) => stored.ksefNumber !== null && stored.sellerNip === nip && sha256Base64Url(Buffer.from(stored.content, 'base64')) === hash,
    );
    const english = /^en\b/i.test(c.req.header('Accept-Language') ?? '');
    return c.html(certificatePage(check, { nip, serial, invoice, english }), check.valid ? 200 : 404);
  });

  // Not part of KSeF's API: where the real KSeF's taxpayer application makes tokens, this double
  // makes them for any NIP. It listens on loopback only and exists only with `--ksef-local`.
  const tokens = new Hono();
  tokens.post('/tokens', async (c) => {
    const body = await jsonBody(c);
    const nip = typeof body?.nip === 'string' ? body.nip : '';
    if (!/^\d{10}$/.test(nip)) return badRequest(c, 21405, 'Błąd walidacji danych wejściowych.', ['nip: 10 digits']);
    return c.json({ token: state.issueToken(nip, clock()) }, 201);
  });
  tokens.post('/certificates', async (c) => {
    const body = await jsonBody(c);
    const nip = typeof body?.nip === 'string' ? body.nip : '';
    if (!/^\d{10}$/.test(nip)) return badRequest(c, 21405, 'Błąd walidacji danych wejściowych.', ['nip: 10 digits']);
    const issued = issueOfflineCertificate(nip, { keyType: body?.key_type === 'ec' ? 'ec' : 'rsa' });
    return c.json({ serial_number: issued.serialNumber, certificate: issued.certificatePem, private_key: issued.privateKeyPem }, 201);
  });

  function issueOfflineCertificate(nip: string, options: OfflineCertificateOptions = {}): IssuedCertificate {
    const now = clock();
    const { privateKey } =
      options.keyType === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
    const validFrom = options.validFrom ?? new Date(now.getTime() - 3600_000);
    const validTo = options.validTo ?? new Date(now.getTime() + 2 * 365 * 24 * 3600_000);
    const der = selfSignedCertificate({ privateKey, commonName: `KSeF Offline ${nip}`, validFrom, validTo });
    const certificate = new X509Certificate(der);
    const certificatePem = certificate.toString();
    state.certificates.set(certificate.serialNumber, { serialNumber: certificate.serialNumber, nip, certificatePem, revokedAt: null });
    state.save();
    return { serialNumber: certificate.serialNumber, certificatePem, privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() };
  }

  const app = new Hono();
  app.route(localApiPath, api);
  app.route(localQrPath, qr);
  app.route(localTokensPath, tokens);

  return {
    app,
    requests,
    issueToken: (nip) => state.issueToken(nip, clock()),
    issueOfflineCertificate,
    revokeCertificate(serialNumber) {
      const certificate = state.certificates.get(serialNumber.toUpperCase());
      if (certificate) certificate.revokedAt = clock().toISOString();
      state.save();
    },
    failNext: (failure) => void failures.push({ ...failure }),
    authenticateSlowly: (reads) => void (slowAuthenticationReads = reads),
    holdProcessing() {
      let release: () => void = () => {};
      held = new Promise((resolve) => (release = resolve));
      return () => {
        release();
        held = undefined;
      };
    },
    async settled() {
      while (processing.size > 0) await Promise.all([...processing]);
    },
  };
}

/**
 * KSeF's checks of a KOD II link, in its order: the certificate is registered, in force and not
 * revoked; the issuer may invoice in the context and the context for the seller (here: the
 * certificate's own NIP, the one case the double knows); the signature holds.
 */
function checkCertificateLink(
  stored: StoredCertificate | undefined,
  link: { contextType: string; context: string; nip: string; signed: string; signature: string },
  now: Date,
): CertificateCheck {
  if (!stored) return { valid: false, reason: 'unknown' };
  const certificate = new X509Certificate(stored.certificatePem);
  if (stored.revokedAt !== null) return { valid: false, reason: 'revoked', certificate };
  if (now < new Date(certificate.validFrom) || now > new Date(certificate.validTo)) return { valid: false, reason: 'expired', certificate };
  if (link.contextType !== 'Nip' || link.context !== stored.nip || link.nip !== stored.nip) return { valid: false, reason: 'not_authorized', certificate };
  const key = certificate.publicKey;
  const signature = Buffer.from(link.signature, 'base64url');
  const data = Buffer.from(link.signed);
  let holds = false;
  try {
    holds =
      key.asymmetricKeyType === 'ec'
        ? verify('sha256', data, { key, dsaEncoding: signature.length === 64 ? 'ieee-p1363' : 'der' }, signature)
        : verify('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature);
  } catch {
    holds = false;
  }
  return holds ? { valid: true, certificate } : { valid: false, reason: 'signature', certificate };
}

function upoAnswer(c: Context, upo: string): Response {
  return c.body(upo, 200, { 'Content-Type': 'application/xml', 'x-ms-meta-hash': sha256Base64(upo) });
}

function bearerOf(c: Context): string | undefined {
  return /^Bearer (.+)$/.exec(c.req.header('Authorization') ?? '')?.[1];
}

async function jsonBody(c: Context): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await c.req.json();
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** KSeF's 400: Problem Details when asked for (`X-Error-Format: problem-details`), the older ExceptionResponse otherwise. */
function badRequest(c: Context, code: number, description: string, details?: string[]): Response {
  const timestamp = new Date().toISOString();
  if (c.req.header('X-Error-Format') === 'problem-details') {
    return c.body(
      JSON.stringify({
        title: 'Bad Request',
        status: 400,
        instance: c.req.path,
        detail: description,
        errors: [{ code, description, ...(details ? { details } : {}) }],
        timestamp,
        traceId: randomBytes(8).toString('hex'),
      }),
      400,
      { 'Content-Type': 'application/problem+json' },
    );
  }
  return c.json(
    {
      exception: {
        exceptionDetailList: [{ exceptionCode: code, exceptionDescription: description, ...(details ? { details } : {}) }],
        serviceCode: randomBytes(8).toString('hex'),
        serviceName: 'Local KSeF',
        timestamp,
      },
    },
    400,
  );
}

function noSession(c: Context): Response {
  return badRequest(c, 21173, 'Brak sesji o wskazanym numerze referencyjnym.', [
    `Sesja o numerze referencyjnym ${c.req.param('referenceNumber') ?? ''} nie została odnaleziona.`,
  ]);
}

function unknownKey(c: Context, keyId: unknown): Response {
  return badRequest(c, 21470, 'Przesłany identyfikator klucza jest nieznany lub wskazuje na wycofany klucz.', [
    `Klucz o identyfikatorze ${String(keyId)} nie jest wspierany.`,
  ]);
}

function unauthorized(c: Context): Response {
  return c.body(
    JSON.stringify({ title: 'Unauthorized', status: 401, detail: 'Brak lub nieprawidłowy token dostępu.', timestamp: new Date().toISOString() }),
    401,
    { 'Content-Type': 'application/problem+json' },
  );
}
