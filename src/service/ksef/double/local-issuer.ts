import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { Hono } from 'hono';
import { badRequest, jsonBody } from './answers.js';
import { selfSignedCertificate } from './certificate.js';
import type { DoubleState } from './state.js';

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

/** Issues an Offline certificate for `nip` and registers it with the double, as KSeF's application does. */
export function issueCertificate(state: DoubleState, clock: () => Date, nip: string, options: OfflineCertificateOptions = {}): IssuedCertificate {
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

/**
 * Not part of KSeF's API: where the real KSeF's taxpayer application makes tokens and certificates,
 * this double makes them for any NIP. It listens on loopback only and exists only with `--ksef-local`.
 */
export function localIssuerApp(state: DoubleState, clock: () => Date): Hono {
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
    const issued = issueCertificate(state, clock, nip, { keyType: body?.key_type === 'ec' ? 'ec' : 'rsa' });
    return c.json({ serial_number: issued.serialNumber, certificate: issued.certificatePem, private_key: issued.privateKeyPem }, 201);
  });
  return tokens;
}
