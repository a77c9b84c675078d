import { constants, generateKeyPairSync, verify, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKsefClient } from '../../../src/service/ksef/client.js';
import { selfSignedCertificate } from '../../../src/service/ksef/double/certificate.js';
import { startKsefDouble, type RunningKsefDouble } from '../../../src/service/ksef/double/server.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { api, type Api } from '../../helpers/http.js';
import { buyer, deliverQueue, holdKsefDecisions, releaseKsefDecisions, pdfText, qrCodesOfPdf, seller, sellerNip } from './support.js';

/**
 * KOD II end to end: the account's Offline certificate through `PUT /account/ksef.json` (write-only,
 * refused when unusable), a back-dated invoice (OFFLINE24) printing KOD I labelled OFFLINE and KOD II
 * labelled CERTYFIKAT on its PDF and public page, the signature checked against the certificate, and
 * the double's verification page answering the link.
 */

let ksef: RunningKsefDouble;
let service: TestService;
let http: Api;
const now = new Date('2026-02-02T09:00:00Z');
const nip = sellerNip;

const line = { name: 'Usługa programistyczna', quantity: 1, total_price_gross: 123, tax: 23 };

beforeAll(async () => {
  ksef = await startKsefDouble({ clock: () => now });
  holdKsefDecisions(ksef);
  const gateway = createKsefClient({ localOrigin: ksef.origin, clock: () => now, sleep: () => Promise.resolve() });
  service = await startTestService({ clock: () => now, ksef: { localOrigin: ksef.origin, gateway, senderIntervalMs: 3_600_000 } });
  http = api(service);
  const connected = await http.put('/account/ksef.json', { ksef: { environment: 'local', token: ksef.issueToken(nip) } });
  expect(connected.status, connected.text).toBe(200);
});
afterAll(async () => {
  await service.stop();
  releaseKsefDecisions(ksef);
  await ksef.close();
});

const deliver = () => deliverQueue(ksef, service, now);

const pem = (der: Buffer) => new X509Certificate(der).toString();
const keyPem = (key: { export(options: { format: 'pem'; type: 'pkcs8' }): string | Buffer }) => key.export({ format: 'pem', type: 'pkcs8' }).toString();

function certificateFor(type: 'rsa1024' | 'p384' | 'rsa', validity: { from?: Date; to?: Date } = {}) {
  const { privateKey } =
    type === 'p384' ? generateKeyPairSync('ec', { namedCurve: 'P-384' }) : generateKeyPairSync('rsa', { modulusLength: type === 'rsa1024' ? 1024 : 2048 });
  const der = selfSignedCertificate({
    privateKey,
    commonName: 'Offline',
    validFrom: validity.from ?? new Date('2026-01-01T00:00:00Z'),
    validTo: validity.to ?? new Date('2027-01-01T00:00:00Z'),
  });
  return { certificate: pem(der), key: keyPem(privateKey) };
}

/** The link's signature checked as KSeF does: over the link without `https://` and without the signature. */
function signatureHolds(link: string, certificatePem: string): boolean {
  const cut = link.lastIndexOf('/');
  const data = Buffer.from(link.slice(0, cut).replace(/^https?:\/\//, ''));
  const signature = Buffer.from(link.slice(cut + 1), 'base64url');
  const key = new X509Certificate(certificatePem).publicKey;
  return key.asymmetricKeyType === 'ec'
    ? signature.length === 64 && verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature)
    : verify('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature);
}

describe('the Offline certificate in the settings', () => {
  it('refuses what cannot sign KOD II with a 422 naming the field, and changes nothing', async () => {
    const good = ksef.issueOfflineCertificate(nip);
    const other = certificateFor('rsa');
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ offline_certificate: 'not a certificate', offline_private_key: good.privateKeyPem }, 'ksef.offline_certificate', /X\.509/],
      [{ offline_certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', offline_private_key: good.privateKeyPem }, 'ksef.offline_certificate', /X\.509/],
      [{ offline_certificate: good.certificatePem, offline_private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' }, 'ksef.offline_private_key', /private key/],
      [{ offline_certificate: good.certificatePem, offline_private_key: other.key }, 'ksef.offline_private_key', /does not match/],
      [{ offline_certificate: good.certificatePem }, 'ksef.offline_private_key', /required/],
      [{ offline_private_key: good.privateKeyPem }, 'ksef.offline_certificate', /required/],
      [{ offline_certificate: 42, offline_private_key: good.privateKeyPem }, 'ksef.offline_certificate', /./],
    ];
    const weak = certificateFor('rsa1024');
    cases.push([{ offline_certificate: weak.certificate, offline_private_key: weak.key }, 'ksef.offline_private_key', /2048/]);
    const p384 = certificateFor('p384');
    cases.push([{ offline_certificate: p384.certificate, offline_private_key: p384.key }, 'ksef.offline_private_key', /P-256/]);
    const expired = certificateFor('rsa', { from: new Date('2024-01-01T00:00:00Z'), to: new Date('2026-02-01T00:00:00Z') });
    cases.push([{ offline_certificate: expired.certificate, offline_private_key: expired.key }, 'ksef.offline_certificate', /expired/]);

    for (const [ksefBody, field, message] of cases) {
      const reply = await http.put('/account/ksef.json', { ksef: ksefBody });
      expect(reply.status, `${field} ${reply.text}`).toBe(422);
      const errors = (reply.body as { message: Record<string, string[]> }).message;
      expect(Object.keys(errors), reply.text).toContain(field);
      expect(errors[field]!.join(' ')).toMatch(message);
      // A key never comes back, not even in an error.
      expect(reply.text).not.toContain('PRIVATE KEY');
    }
    expect((await http.get('/account/ksef.json')).body.ksef).toMatchObject({ environment: 'local', token_set: true, offline_certificate_set: false, offline_certificate: null });
  });

  it('keeps the key write-only and answers the serial number and validity read from the certificate', async () => {
    const issued = ksef.issueOfflineCertificate(nip, { keyType: 'ec' });
    const saved = await http.put('/account/ksef.json', { ksef: { offline_certificate: issued.certificatePem, offline_private_key: issued.privateKeyPem } });
    expect(saved.status, saved.text).toBe(200);
    const certificate = new X509Certificate(issued.certificatePem);
    const expected = {
      offline_certificate_set: true,
      offline_certificate: {
        serial_number: issued.serialNumber,
        valid_from: new Date(certificate.validFrom).toISOString(),
        valid_to: new Date(certificate.validTo).toISOString(),
        key_type: 'ec',
      },
    };
    expect(saved.body.ksef).toMatchObject(expected);
    const read = await http.get('/account/ksef.json');
    expect(read.body.ksef).toMatchObject({ ...expected, environment: 'local', token_set: true });
    const keyBody = issued.privateKeyPem.split('\n')[1]!;
    for (const text of [saved.text, read.text]) {
      expect(text).not.toContain('PRIVATE KEY');
      expect(text).not.toContain(keyBody.slice(0, 24));
    }
    // Other settings leave the certificate as it is; null removes it.
    expect((await http.put('/account/ksef.json', { ksef: { validate_invoices_for_gov: true } })).body.ksef.offline_certificate_set).toBe(true);
    const removed = await http.put('/account/ksef.json', { ksef: { offline_certificate: null } });
    expect(removed.body.ksef).toMatchObject({ offline_certificate_set: false, offline_certificate: null });
  });
});

describe('an invoice issued offline', () => {
  for (const keyType of ['rsa', 'ec'] as const) {
    it(`prints KOD I (OFFLINE, then its KSeF number) and KOD II (CERTYFIKAT) signed with ${keyType === 'rsa' ? 'RSA-PSS' : 'ECDSA P-256'}`, async () => {
      const issued = ksef.issueOfflineCertificate(nip, { keyType });
      const saved = await http.put('/account/ksef.json', { ksef: { offline_certificate: issued.certificatePem, offline_private_key: issued.privateKeyPem } });
      expect(saved.status, saved.text).toBe(200);

      // Dated yesterday: OFFLINE24.
      const created = await http.post('/invoices.json', { gov_save_and_send: true, invoice: { issue_date: '2026-02-01', ...seller, ...buyer, positions: [line] } });
      expect(created.status, created.text).toBe(201);
      const invoice = created.body;
      expect(invoice.gov_status).toBe('demo_processing');
      expect(invoice).not.toHaveProperty('ksef_certificate_link');

      const pdfOf = async () => new Uint8Array(await (await fetch(`${service.url}/invoices/${String(invoice.id)}.pdf?api_token=${service.apiToken}`)).arrayBuffer());
      const before = await pdfOf();
      const codes = await qrCodesOfPdf(before);
      expect(codes).toHaveLength(2);
      expect(codes).toContain(invoice.gov_verification_link);
      const kodII = codes.find((code) => code !== invoice.gov_verification_link)!;
      expect(kodII.startsWith(`${ksef.origin}/qr/certificate/Nip/${nip}/${nip}/${issued.serialNumber}/`)).toBe(true);
      // The hash in KOD II is the one in KOD I: SHA-256 of the document sent.
      const hash = invoice.gov_verification_link.split('/').at(-1);
      expect(kodII.split('/').at(-2)).toBe(hash);
      expect(signatureHolds(kodII, issued.certificatePem)).toBe(true);
      const text = await pdfText(before);
      expect(text).toMatch(/OFFLINE/);
      expect(text).toContain('CERTYFIKAT');
      expect(text).toContain('TEST: faktura ze środowiska testowego KSeF, bez mocy prawnej');

      const view = await (await fetch(invoice.view_url)).text();
      expect(view).toContain(`<a href="${invoice.gov_verification_link}"`);
      expect(view).toContain(`<a href="${kodII}"`);
      expect(view).toContain('<strong>OFFLINE</strong>');
      expect(view).toContain('<strong>CERTYFIKAT</strong>');

      // The double's verification page knows the certificate and checks the signature.
      const page = await fetch(kodII, { headers: { 'accept-language': 'en' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('data-state="valid"');
      const forged = kodII.replace(/\/[^/]+$/, `/${Buffer.alloc(keyType === 'ec' ? 64 : 256, 1).toString('base64url')}`);
      const refused = await fetch(forged);
      expect(refused.status).toBe(404);
      expect(await refused.text()).toContain('data-reason="signature"');

      await deliver();
      const sent = (await http.get(`/invoices/${String(invoice.id)}.json`)).body;
      expect(sent.gov_status).toBe('demo_ok');
      const after = await pdfOf();
      expect(new Set(await qrCodesOfPdf(after))).toEqual(new Set([invoice.gov_verification_link, kodII]));
      const afterText = await pdfText(after);
      expect(afterText).toContain(sent.gov_id);
      expect(afterText).toContain('CERTYFIKAT');
      expect(afterText).not.toMatch(/\bOFFLINE\b/);
    });
  }

  it('fails verification once the certificate is revoked, or for a certificate KSeF does not know', async () => {
    const issued = ksef.issueOfflineCertificate(nip);
    await http.put('/account/ksef.json', { ksef: { offline_certificate: issued.certificatePem, offline_private_key: issued.privateKeyPem } });
    const created = await http.post('/invoices.json', { gov_save_and_send: true, invoice: { issue_date: '2026-01-31', ...seller, ...buyer, positions: [line] } });
    const codes = await qrCodesOfPdf(new Uint8Array(await (await fetch(`${service.url}/invoices/${String(created.body.id)}.pdf?api_token=${service.apiToken}`)).arrayBuffer()));
    const kodII = codes.find((code) => code.includes('/certificate/'))!;
    expect((await fetch(kodII)).status).toBe(200);
    ksef.revokeCertificate(issued.serialNumber);
    const revoked = await fetch(kodII);
    expect(revoked.status).toBe(404);
    expect(await revoked.text()).toContain('data-reason="revoked"');
    const unknown = await fetch(kodII.replace(issued.serialNumber, '1000000000000001'));
    expect(await unknown.text()).toContain('data-reason="unknown"');
    // A certificate of one seller does not vouch for another's invoices.
    const other = ksef.issueOfflineCertificate('1234563218');
    const elsewhere = kodII.replace(`/Nip/${nip}/${nip}/${issued.serialNumber}/`, `/Nip/${nip}/${nip}/${other.serialNumber}/`);
    expect(await (await fetch(elsewhere)).text()).toContain('data-reason="not_authorized"');
  });

  it('an invoice issued today goes online and carries KOD I alone', async () => {
    const issued = ksef.issueOfflineCertificate(nip);
    await http.put('/account/ksef.json', { ksef: { offline_certificate: issued.certificatePem, offline_private_key: issued.privateKeyPem } });
    const created = await http.post('/invoices.json', { gov_save_and_send: true, invoice: { issue_date: '2026-02-02', ...seller, ...buyer, positions: [line] } });
    // Online and not numbered yet: no code is printed until KSeF accepts it.
    const pdfOf = async () => new Uint8Array(await (await fetch(`${service.url}/invoices/${String(created.body.id)}.pdf?api_token=${service.apiToken}`)).arrayBuffer());
    expect(await qrCodesOfPdf(await pdfOf())).toEqual([]);
    await deliver();
    expect(await qrCodesOfPdf(await pdfOf())).toEqual([created.body.gov_verification_link]);
  });
});
