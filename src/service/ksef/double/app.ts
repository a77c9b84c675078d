import { randomBytes } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { Hono, type Context } from 'hono';
import { aesDecrypt, rsaOaepDecrypt } from '../crypto.js';
import { ksefNumber, localApiPath, localQrPath, sha256Base64 } from '../gateway.js';

/** Where the double hands out KSeF tokens (`POST {origin}/local/tokens {"nip": "…"}`). */
export const localTokensPath = '/local';
import { validateFa3 } from '../schemas.js';
import { encryptionCertificates } from './certificate.js';
import { DoubleState, referenceNumber, type StoredInvoice, type StoredSession } from './state.js';
import { upoDocument } from './upo.js';
import { bearerOf, badRequest, jsonBody, noSession, unauthorized, unknownKey, upoAnswer } from './answers.js';
import { type IssuedCertificate, issueCertificate, localIssuerApp, type OfflineCertificateOptions } from './local-issuer.js';
import { verificationApp } from './verification.js';
import { injectedFailures, type InjectedFailure } from './failures.js';

export type { InjectedFailure, IssuedCertificate, OfflineCertificateOptions };

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

  const certificates = encryptionCertificates(state.tokenKey, state.symmetricKey);

  const api = new Hono();

  api.use('*', injectedFailures(failures, requests));

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

  const app = new Hono();
  app.route(localApiPath, api);
  app.route(localQrPath, verificationApp(state, clock));
  app.route(localTokensPath, localIssuerApp(state, clock));

  return {
    app,
    requests,
    issueToken: (nip) => state.issueToken(nip, clock()),
    issueOfflineCertificate: (nip, certificateOptions) => issueCertificate(state, clock, nip, certificateOptions),
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
