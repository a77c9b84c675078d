import { createPublicKey, generateKeyPairSync, verify, constants } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKsefClient, retryDelay } from '../../../src/service/ksef/client.js';
import { startKsefDouble } from '../../../src/service/ksef/double/server.js';
import { startLocalKsef } from '../../../src/service/ksef/local.js';
import {
  isValidKsefNumber,
  KsefError,
  ksefHosts,
  ksefNumberChecksum,
  sha256Base64,
  sha256Base64Url,
  verificationLink,
  type KsefOutcome,
  type KsefReceipt,
} from '../../../src/service/ksef/gateway.js';
import { certificateVerificationLink } from '../../../src/service/ksef/kod-ii.js';
import { aesEncrypt, encryptKsefToken, newSessionKey, publicKeyOfCertificate, rsaOaepEncrypt } from '../../../src/service/ksef/crypto.js';
import { validateFa3, validateUpo } from '../../../src/service/ksef/schemas.js';
import { describeOutsidePostgresPass } from '../../helpers/passes.js';
import { exampleInvoice, startDoubleWorld, testClock, type DoubleWorld } from './double-support.js';
import { xmllint } from './support.js';

const nip = '5265877635';
const clock = testClock('2026-03-02T09:30:00.000Z');

describeOutsidePostgresPass('KSeF numbers and verification links', () => {
  it('computes the CRC-8 of the guide’s example and validates KSeF numbers', () => {
    expect(ksefNumberChecksum('5265877635-20250826-0100001AF629')).toBe('AF');
    expect(isValidKsefNumber('5265877635-20250826-0100001AF629-AF')).toBe(true);
    expect(isValidKsefNumber('5265877635-20250626-010080DD2B5E-26')).toBe(true);
    expect(isValidKsefNumber('5265877635-20250826-0100001AF629-AE')).toBe(false);
    expect(isValidKsefNumber('5265877635-20250826-0100001af629-AF')).toBe(false);
    expect(isValidKsefNumber('5265877635-20250231-0100001AF629-AF')).toBe(false);
    expect(isValidKsefNumber('5265877635-20250826-0100001AF629AF')).toBe(false);
  });

  it('builds KOD I from the issue date, the seller and the SHA-256 of the sent bytes, per environment', () => {
    const xml = '<Faktura>ż</Faktura>';
    const hash = sha256Base64Url(Buffer.from(xml, 'utf8'));
    expect(hash).not.toMatch(/[+/=]/);
    expect(verificationLink({ environment: 'test', sellerNip: '1111111111', issueDate: '2026-02-01', xml })).toBe(
      `https://qr-test.ksef.mf.gov.pl/invoice/1111111111/01-02-2026/${hash}`,
    );
    expect(verificationLink({ environment: 'demo', sellerNip: '1111111111', issueDate: '2026-02-01', xml })).toMatch(/^https:\/\/qr-demo\.ksef\.mf\.gov\.pl\/invoice\//);
    expect(verificationLink({ environment: 'production', sellerNip: '1111111111', issueDate: '2026-02-01', xml })).toMatch(/^https:\/\/qr\.ksef\.mf\.gov\.pl\/invoice\//);
    expect(verificationLink({ environment: 'local', sellerNip: '1111111111', issueDate: '2026-02-01', xml, localOrigin: 'http://127.0.0.1:4567/' })).toBe(
      `http://127.0.0.1:4567/qr/invoice/1111111111/01-02-2026/${hash}`,
    );
    expect(() => ksefHosts('local')).toThrow(KsefError);
    expect(ksefHosts('production').apiBaseUrl).toBe('https://api.ksef.mf.gov.pl/v2');
  });

  it('signs KOD II with an Offline certificate’s key, RSA-PSS or ECDSA P-256', () => {
    const xml = exampleInvoice(nip, '2026-03-01', '1');
    for (const [type, verifyWith] of [
      ['rsa', (key: ReturnType<typeof createPublicKey>) => ({ key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })],
      ['ec', (key: ReturnType<typeof createPublicKey>) => ({ key, dsaEncoding: 'ieee-p1363' as const })],
    ] as const) {
      const pair = type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const link = certificateVerificationLink({
        environment: 'test',
        sellerNip: nip,
        xml,
        certificate: { serialNumber: '01F20A5D352AE590', privateKeyPem: pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() },
      });
      const prefix = `https://qr-test.ksef.mf.gov.pl/certificate/Nip/${nip}/${nip}/01F20A5D352AE590/${sha256Base64Url(xml)}/`;
      expect(link.startsWith(prefix)).toBe(true);
      const signature = Buffer.from(link.slice(prefix.length), 'base64url');
      const signed = prefix.slice('https://'.length, -1);
      expect(verify('sha256', Buffer.from(signed), verifyWith(pair.publicKey), signature)).toBe(true);
      expect(verify('sha256', Buffer.from(`${signed}x`), verifyWith(pair.publicKey), signature)).toBe(false);
    }
  });
});

describeOutsidePostgresPass('the retry rule', () => {
  const limit = new KsefError('retryable', 'limit', { status: 429, retryAfterMs: 7000 });
  const outage = new KsefError('retryable', 'outage', { status: 503 });
  it('honours Retry-After, backs off otherwise, and gives up on final failures and after the last attempt', () => {
    expect(retryDelay(limit, 1, 5, () => 0.99)).toBe(7000);
    expect([1, 2, 3, 4].map((attempt) => retryDelay(outage, attempt, 5, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect(retryDelay(outage, 1, 5, () => 0.999)).toBe(1000);
    expect(retryDelay(outage, 5, 5, () => 0)).toBeUndefined();
    expect(retryDelay(new KsefError('final', 'no'), 1, 5, () => 0)).toBeUndefined();
    expect(retryDelay(new KsefError('retryable', 'x', { retryAfterMs: 3_600_000 }), 1, 5, () => 0)).toBe(60_000);
  });
});

describeOutsidePostgresPass('the KSeF client against the bundled double', () => {
  let world: DoubleWorld;
  let token: string;

  beforeAll(async () => {
    world = await startDoubleWorld(clock.now);
    token = world.double.issueToken(nip);
  });
  afterAll(() => world.close());

  async function decided(receipt: KsefReceipt): Promise<KsefOutcome> {
    await world.double.settled();
    return world.client.outcome(receipt, token);
  }

  it('authenticates with the token, sends the invoice encrypted, and reads its KSeF number and UPO', async () => {
    const xml = exampleInvoice(nip, '2026-03-01', '1001');
    expect((await validateFa3(xml)).valid).toBe(true);
    const before = world.double.requests.length;
    const receipt = await world.client.submit({ environment: 'local', sellerNip: nip, token, xml });
    expect(receipt).toMatchObject({ environment: 'local', sellerNip: nip, invoiceHash: sha256Base64(Buffer.from(xml)), sentAt: '2026-03-02T09:30:00.000Z' });
    expect(receipt.sessionReferenceNumber).toMatch(/^20260302-SO-[0-9A-F]{10}-[0-9A-F]{10}-[0-9A-F]{2}$/);
    expect(world.double.requests.slice(before).map((request) => request.replace(/\/\d{8}-[^/]+/g, '/{ref}'))).toEqual([
      'GET /security/public-key-certificates',
      'POST /auth/challenge',
      'POST /auth/ksef-token',
      'GET /auth/{ref}',
      'POST /auth/token/redeem',
      'POST /sessions/online',
      'POST /sessions/online/{ref}/invoices',
      'POST /sessions/online/{ref}/close',
    ]);

    const outcome = await decided(receipt);
    if (outcome.state !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(outcome)}`);
    expect(outcome.ksefNumber).toMatch(/^5265877635-20260302-[0-9A-F]{12}-[0-9A-F]{2}$/);
    expect(isValidKsefNumber(outcome.ksefNumber)).toBe(true);
    expect(outcome.acquisitionDate).toBe('2026-03-02T09:30:00.000Z');
    const upo = outcome.upoXml ?? '';
    expect((await xmllint(upo, 'upo')).errors).toBe('');
    expect((await validateUpo(upo)).valid).toBe(true);
    expect(upo).toContain(`<NumerKSeFDokumentu>${outcome.ksefNumber}</NumerKSeFDokumentu>`);
    expect(upo).toContain(`<SkrotDokumentu>${receipt.invoiceHash}</SkrotDokumentu>`);
    expect(upo).toContain('<NumerFaktury>FA/GRQMB-1001/05/2025</NumerFaktury>');
    expect(upo).toContain('<TrybWysylki>Online</TrybWysylki>');
    expect(upo).toContain('<NazwaPodmiotuPrzyjmujacego>Ministerstwo Finansów</NazwaPodmiotuPrzyjmujacego>');

    const link = verificationLink({ environment: 'local', sellerNip: nip, issueDate: '2026-03-01', xml, localOrigin: world.double.origin });
    const page = await fetch(link, { headers: { 'Accept-Language': 'en' } });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('The invoice is in KSeF.');
    expect(text).toContain(outcome.ksefNumber);
    const tampered = await fetch(link.replace(/\/[^/]+$/, `/${sha256Base64Url('other')}`));
    expect(tampered.status).toBe(404);
    expect(await tampered.text()).toContain('Nie znaleziono faktury');
  });

  it('reuses its access token and the certificates for the next invoice', async () => {
    const before = world.double.requests.length;
    const receipt = await world.client.submit({ environment: 'local', sellerNip: nip, token, xml: exampleInvoice(nip, '2026-03-01', '1002') });
    expect(world.double.requests.slice(before).map((request) => request.split(' ')[1]?.replace(/\/\d{8}-[^/]+/g, '/{ref}'))).toEqual([
      '/sessions/online',
      '/sessions/online/{ref}/invoices',
      '/sessions/online/{ref}/close',
    ]);
    expect((await decided(receipt)).state).toBe('accepted');
  });

  it('answers a duplicate (same seller, kind and number) with code 440 and the original KSeF number', async () => {
    const xml = exampleInvoice(nip, '2026-03-01', '1003');
    const first = await decided(await world.client.submit({ environment: 'local', sellerNip: nip, token, xml }));
    if (first.state !== 'accepted') throw new Error('not accepted');
    // Another file (other whitespace) with the same business data is still the same invoice.
    const again = await decided(await world.client.submit({ environment: 'local', sellerNip: nip, token, xml: xml.replace('<Fa>', '<Fa>\n') }));
    expect(again).toMatchObject({ state: 'rejected', code: 440, description: 'Duplikat faktury', duplicateOf: first.ksefNumber, resend: false });
    expect(again.state === 'rejected' && again.originalUpoXml).toBe(first.upoXml);
  });

  it('refuses an invoice the FA(3) schema refuses, naming the element, with KSeF’s code', async () => {
    const xml = exampleInvoice(nip, '2026-03-01', '1004').replace('<P_2>', '<P_2x>').replace('</P_2>', '</P_2x>');
    const outcome = await decided(await world.client.submit({ environment: 'local', sellerNip: nip, token, xml }));
    if (outcome.state !== 'rejected') throw new Error('not rejected');
    expect(outcome.code).toBe(450);
    expect(outcome.details.join('\n')).toContain('P_2x');
  });

  it('refuses an invoice of another seller and one dated after its acceptance', async () => {
    const otherSeller = await decided(await world.client.submit({ environment: 'local', sellerNip: nip, token, xml: exampleInvoice('7010002137', '2026-03-01', '1005') }));
    expect(otherSeller).toMatchObject({ state: 'rejected', code: 410 });
    const future = await decided(await world.client.submit({ environment: 'local', sellerNip: nip, token, xml: exampleInvoice(nip, '2026-03-03', '1006') }));
    expect(future).toMatchObject({ state: 'rejected', code: 450 });
  });

  it('keeps an invoice at processing while KSeF works, then accepts it', async () => {
    const release = world.double.holdProcessing();
    const receipt = await world.client.submit({ environment: 'local', sellerNip: nip, token, xml: exampleInvoice(nip, '2026-03-01', '1007') });
    expect(await world.client.outcome(receipt, token)).toEqual({ state: 'processing', code: 150, description: 'Trwa przetwarzanie' });
    release();
    expect((await decided(receipt)).state).toBe('accepted');
  });

  it('awaits the outcome, reading again after each wait until KSeF has decided', async () => {
    const release = world.double.holdProcessing();
    const waits: number[] = [];
    const patient = createKsefClient({
      localOrigin: world.double.origin,
      clock: clock.now,
      // The first wait is when KSeF finishes: the next reading finds the decision.
      sleep: async (ms) => {
        waits.push(ms);
        release();
        await world.double.settled();
      },
    });
    const receipt = await patient.submit({ environment: 'local', sellerNip: nip, token, xml: exampleInvoice(nip, '2026-03-01', '1013') });
    expect((await patient.awaitOutcome(receipt, token)).state).toBe('accepted');
    expect(waits).toEqual([250]);
  });

  it('sends in offline mode for OFFLINE24, and the UPO says so', async () => {
    const receipt = await world.client.submit({ environment: 'local', sellerNip: nip, token, xml: exampleInvoice(nip, '2026-03-01', '1008'), offlineMode: true });
    const outcome = await decided(receipt);
    if (outcome.state !== 'accepted') throw new Error('not accepted');
    expect(outcome.upoXml).toContain('<TrybWysylki>Offline</TrybWysylki>');
  });

  it('waits as long as Retry-After says on 429, then succeeds', async () => {
    world.sleeps.length = 0;
    world.double.failNext({ status: 429, retryAfterSeconds: 7, pathPrefix: '/sessions/online' });
    const receipt = await world.client.submit({ environment: 'local', sellerNip: nip, token, xml: exampleInvoice(nip, '2026-03-01', '1009') });
    expect(world.sleeps).toEqual([7000]);
    expect((await decided(receipt)).state).toBe('accepted');
  });

  it('backs off through an outage, then succeeds', async () => {
    world.sleeps.length = 0;
    world.double.failNext({ status: 503, times: 3, pathPrefix: '/sessions' });
    const receipt = await world.client.submit({ environment: 'local', sellerNip: nip, token, xml: exampleInvoice(nip, '2026-03-01', '1010') });
    expect(world.sleeps).toEqual([500, 1000, 2000]);
    expect((await decided(receipt)).state).toBe('accepted');
  });

  it('gives up on a long outage with a retryable error, and on a dead address', async () => {
    world.double.failNext({ status: 502, times: 5, pathPrefix: '/sessions' });
    const error = await world.client.submit({ environment: 'local', sellerNip: nip, token, xml: exampleInvoice(nip, '2026-03-01', '1011') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KsefError);
    expect(error).toMatchObject({ kind: 'retryable', status: 502 });

    const sleeps: number[] = [];
    const nowhere = createKsefClient({ localOrigin: 'http://127.0.0.1:9', sleep: async (ms) => void sleeps.push(ms), random: () => 0, attempts: 3 });
    await expect(nowhere.submit({ environment: 'local', sellerNip: nip, token, xml: 'x' })).rejects.toMatchObject({ kind: 'retryable', status: undefined });
    expect(sleeps).toEqual([500, 1000]);
  });

  it('reads the authentication status again while KSeF is still checking the token', async () => {
    const sleeps: number[] = [];
    const fresh = createKsefClient({ localOrigin: world.double.origin, clock: clock.now, sleep: async (ms) => void sleeps.push(ms) });
    world.double.authenticateSlowly(2);
    const before = world.double.requests.length;
    await fresh.submit({ environment: 'local', sellerNip: nip, token, xml: exampleInvoice(nip, '2026-03-01', '1014') });
    expect(world.double.requests.slice(before).filter((request) => request.startsWith('GET /auth/'))).toHaveLength(3);
    expect(sleeps).toEqual([500, 1000]);
    await world.double.settled();
  });

  it('refuses a token it did not issue and a token of another NIP, as final failures', async () => {
    const forged = token.replace(/[0-9a-f]$/, (c) => (c === '0' ? '1' : '0'));
    await expect(world.client.submit({ environment: 'local', sellerNip: nip, token: forged, xml: 'x' })).rejects.toMatchObject({ kind: 'final', code: 450 });
    const other = world.double.issueToken('7010002137');
    await expect(world.client.submit({ environment: 'local', sellerNip: nip, token: other, xml: 'x' })).rejects.toMatchObject({ kind: 'final', code: 415 });
    await expect(world.client.submit({ environment: 'local', sellerNip: nip, token: 'not a token', xml: 'x' })).rejects.toMatchObject({ kind: 'final' });
  });

  it('reads an outcome after a restart of both sides, from the stored receipt alone', async () => {
    const receipt = await world.client.submit({ environment: 'local', sellerNip: nip, token, xml: exampleInvoice(nip, '2026-03-01', '1012') });
    const stored = JSON.parse(JSON.stringify(receipt)) as KsefReceipt;
    await world.double.close();
    const restarted = await startKsefDouble({ stateFile: join(world.dir, 'ksef.json'), clock: clock.now });
    try {
      const client = createKsefClient({ localOrigin: restarted.origin, clock: clock.now, sleep: async () => {} });
      const outcome = await client.outcome(stored, token);
      if (outcome.state !== 'accepted') throw new Error('not accepted');
      // Sending it again (a crash before the number was stored) cannot make a second invoice in KSeF.
      const resent = await client.submit({ environment: 'local', sellerNip: nip, token, xml: exampleInvoice(nip, '2026-03-01', '1012') });
      await restarted.settled();
      expect(await client.outcome(resent, token)).toMatchObject({ state: 'rejected', code: 440, duplicateOf: outcome.ksefNumber });
    } finally {
      await restarted.close();
    }
  });
});

describeOutsidePostgresPass('the local KSeF for users', () => {
  it('hands out a token for a NIP that the client then authenticates with', async () => {
    const local = await startLocalKsef({});
    try {
      const answer = await fetch(`${local.origin}/local/tokens`, { method: 'POST', body: JSON.stringify({ nip: '7010002137' }) });
      expect(answer.status).toBe(201);
      const { token } = (await answer.json()) as { token: string };
      expect(token).toMatch(/^\d{8}-EC-[0-9A-F]{10}-[0-9A-F]{10}-[0-9A-F]{2}\|nip-7010002137\|[0-9a-f]{64}$/);
      const client = createKsefClient({ localOrigin: local.origin, sleep: async () => {} });
      const receipt = await client.submit({ environment: 'local', sellerNip: '7010002137', token, xml: exampleInvoice('7010002137', '2026-01-02', '1') });
      expect(receipt.sellerNip).toBe('7010002137');
    } finally {
      await local.close();
    }
  });
});

describeOutsidePostgresPass('the double’s answers to hostile requests', () => {
  let world: DoubleWorld;
  beforeAll(async () => {
    world = await startDoubleWorld(clock.now);
  });
  afterAll(() => world.close());

  it('answers 400 with KSeF’s error shapes and 401 without a token, never 500', async () => {
    const api = `${world.double.origin}/v2`;
    const bad = await fetch(`${api}/auth/ksef-token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{oops' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ exception: { exceptionDetailList: [{ exceptionCode: 21405 }] } });
    const unknownChallenge = await fetch(`${api}/auth/ksef-token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Error-Format': 'problem-details' },
      body: JSON.stringify({ challenge: '20260302-CR-0000000000-0000000000-00', contextIdentifier: { type: 'Nip', value: nip }, encryptedToken: 'AAAA' }),
    });
    expect(unknownChallenge.status).toBe(400);
    expect(unknownChallenge.headers.get('content-type')).toContain('application/problem+json');
    expect(await unknownChallenge.json()).toMatchObject({ status: 400, errors: [{ code: 21111 }] });
    const unknownKey = await fetch(`${api}/auth/ksef-token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ challenge: '20260302-CR-0000000000-0000000000-00', contextIdentifier: { type: 'Nip', value: nip }, encryptedToken: 'AAAA', publicKeyId: 'AAAA' }),
    });
    expect(await unknownKey.json()).toMatchObject({ exception: { exceptionDetailList: [{ exceptionCode: 21470 }] } });
    const noNip = await fetch(`${world.double.origin}/local/tokens`, { method: 'POST', body: JSON.stringify({ nip: '12' }) });
    expect(noNip.status).toBe(400);
    for (const [method, path] of [
      ['POST', '/sessions/online'],
      ['GET', '/sessions/20260302-SO-0000000000-0000000000-00'],
      ['POST', '/auth/token/redeem'],
    ] as const) {
      const answer = await fetch(`${api}${path}`, { method, headers: { Authorization: 'Bearer nothing' } });
      expect(answer.status).toBe(401);
    }
  });
});

describeOutsidePostgresPass('the double’s checks of sessions and files', () => {
  let world: DoubleWorld;
  let api: string;
  let access: string;
  beforeAll(async () => {
    world = await startDoubleWorld(clock.now);
    api = `${world.double.origin}/v2`;
    access = await logIn(api, nip, world.double.issueToken(nip));
  });
  afterAll(() => world.close());

  const post = (path: string, body: unknown) =>
    fetch(`${api}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${access}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const codeOf = async (answer: Response) => {
    expect(answer.status).toBe(400);
    return ((await answer.json()) as { exception: { exceptionDetailList: Array<{ exceptionCode: number }> } }).exception.exceptionDetailList[0]?.exceptionCode;
  };

  it('refuses a session key it cannot decrypt, a wrong form, a missing or closed session, and files whose hash or size lie', async () => {
    const certificates = (await (await fetch(`${api}/security/public-key-certificates`)).json()) as Array<{ certificate: string; usage: string[] }>;
    const sessionCertificate = publicKeyOfCertificate(certificates.find((entry) => entry.usage.includes('SymmetricKeyEncryption'))!.certificate);
    const key = newSessionKey();
    const encryption = { encryptedSymmetricKey: rsaOaepEncrypt(sessionCertificate, key.key).toString('base64'), initializationVector: key.iv.toString('base64') };
    const formCode = { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' };

    expect(await codeOf(await post('/sessions/online', { formCode, encryption: { ...encryption, encryptedSymmetricKey: Buffer.alloc(256).toString('base64') } }))).toBe(21405);
    expect(await codeOf(await post('/sessions/online', { formCode: { ...formCode, systemCode: 'FA (2)' }, encryption }))).toBe(21405);
    const opened = await post('/sessions/online', { formCode, encryption });
    expect(opened.status).toBe(201);
    const session = ((await opened.json()) as { referenceNumber: string }).referenceNumber;

    const plain = Buffer.from(exampleInvoice(nip, '2026-03-01', '3001'));
    const encrypted = aesEncrypt(key, plain);
    const file = {
      invoiceHash: sha256Base64(plain),
      invoiceSize: plain.length,
      encryptedInvoiceHash: sha256Base64(encrypted),
      encryptedInvoiceSize: encrypted.length,
      encryptedInvoiceContent: encrypted.toString('base64'),
    };
    expect(await codeOf(await post('/sessions/online/20260302-SO-0000000000-0000000000-00/invoices', file))).toBe(21173);
    expect(await codeOf(await post(`/sessions/online/${session}/invoices`, { ...file, encryptedInvoiceSize: encrypted.length + 1 }))).toBe(21402);
    expect(await codeOf(await post(`/sessions/online/${session}/invoices`, { ...file, encryptedInvoiceHash: sha256Base64('other') }))).toBe(21403);
    expect(await codeOf(await post(`/sessions/online/${session}/invoices`, { ...file, invoiceSize: 'big' }))).toBe(21405);

    // A plain-file hash that lies is found once the double has decrypted it: 430, not a KSeF number.
    const lying = await post(`/sessions/online/${session}/invoices`, { ...file, invoiceHash: sha256Base64('other') });
    expect(lying.status).toBe(202);
    const lyingReference = ((await lying.json()) as { referenceNumber: string }).referenceNumber;
    await world.double.settled();
    const status = await fetch(`${api}/sessions/${session}/invoices/${lyingReference}`, { headers: { Authorization: `Bearer ${access}` } });
    expect(((await status.json()) as { status: { code: number } }).status.code).toBe(430);

    expect((await post(`/sessions/online/${session}/close`, {})).status).toBe(204);
    expect(await codeOf(await post(`/sessions/online/${session}/invoices`, file))).toBe(21180);
  });

  it('keeps each seller’s sessions to that seller', async () => {
    const other = await logIn(api, '7010002137', world.double.issueToken('7010002137'));
    const certificates = (await (await fetch(`${api}/security/public-key-certificates`)).json()) as Array<{ certificate: string; usage: string[] }>;
    const key = newSessionKey();
    const sessionCertificate = publicKeyOfCertificate(certificates.find((entry) => entry.usage.includes('SymmetricKeyEncryption'))!.certificate);
    const opened = await post('/sessions/online', {
      formCode: { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' },
      encryption: { encryptedSymmetricKey: rsaOaepEncrypt(sessionCertificate, key.key).toString('base64'), initializationVector: key.iv.toString('base64') },
    });
    const session = ((await opened.json()) as { referenceNumber: string }).referenceNumber;
    const peek = await fetch(`${api}/sessions/${session}`, { headers: { Authorization: `Bearer ${other}` } });
    expect(peek.status).toBe(400);
    const own = await fetch(`${api}/sessions/${session}`, { headers: { Authorization: `Bearer ${access}` } });
    expect(((await own.json()) as { status: { code: number } }).status.code).toBe(100);
  });
});

/** KSeF's token login, step by step: challenge, the encrypted token, the status, the redeemed access token. */
async function logIn(api: string, sellerNip: string, token: string): Promise<string> {
  const certificates = (await (await fetch(`${api}/security/public-key-certificates`)).json()) as Array<{ certificate: string; usage: string[] }>;
  const tokenKey = publicKeyOfCertificate(certificates.find((entry) => entry.usage.includes('KsefTokenEncryption'))!.certificate);
  const challenge = (await (await fetch(`${api}/auth/challenge`, { method: 'POST' })).json()) as { challenge: string; timestampMs: number };
  const started = (await (
    await fetch(`${api}/auth/ksef-token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ challenge: challenge.challenge, contextIdentifier: { type: 'Nip', value: sellerNip }, encryptedToken: encryptKsefToken(tokenKey, token, challenge.timestampMs) }),
    })
  ).json()) as { referenceNumber: string; authenticationToken: { token: string } };
  const bearer = { Authorization: `Bearer ${started.authenticationToken.token}` };
  const status = (await (await fetch(`${api}/auth/${started.referenceNumber}`, { headers: bearer })).json()) as { status: { code: number } };
  expect(status.status.code).toBe(200);
  const tokens = (await (await fetch(`${api}/auth/token/redeem`, { method: 'POST', headers: bearer })).json()) as { accessToken: { token: string } };
  const again = await fetch(`${api}/auth/token/redeem`, { method: 'POST', headers: bearer });
  expect(again.status).toBe(400);
  return tokens.accessToken.token;
}
