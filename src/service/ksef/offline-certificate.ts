import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import type { Sql } from '../db.js';
import { lastKsefJobDocument } from '../data/ksef-jobs.js';
import type { KsefEnvironment } from './gateway.js';
import { certificateVerificationLink, type OfflineCertificate } from './kod-ii.js';
import type { KsefSettings } from './settings.js';
import { Problems } from '../domain-errors.js';

/**
 * The account's KSeF certificate of the Offline kind, which signs KOD II: checked when it is set
 * (`PUT /account/ksef.json`), then read for its serial number and dates. The private key is never
 * answered, logged or put into a message.
 */

export interface OfflineCertificateInfo {
  /** Hex, upper case, as KSeF prints it. */
  readonly serial_number: string;
  readonly valid_from: string;
  readonly valid_to: string;
  readonly key_type: 'rsa' | 'ec';
}

const certificateField = 'ksef.offline_certificate';
const keyField = 'ksef.offline_private_key';

/**
 * The problems of a certificate and key about to be set, by field (empty when they are usable):
 * garbage, a key of a kind KOD II cannot be signed with (RSA under 2048 bits, EC other than P-256),
 * a key that is not the certificate's, a certificate out of its validity at `now`.
 */
export function offlineCertificateProblems(certificatePem: string, privateKeyPem: string, now: Date): Record<string, string[]> {
  const problems = new Problems();
  const certificate = parseCertificate(certificatePem);
  if (!certificate) problems.add(certificateField, 'is not an X.509 certificate in PEM form');
  let key: KeyObject | undefined;
  try {
    key = createPrivateKey({ key: privateKeyPem, format: 'pem' });
  } catch (error) {
    const encrypted = /passphrase|encrypted/i.test(String((error as Error).message)) || /ENCRYPTED/.test(privateKeyPem);
    problems.add(keyField, encrypted ? 'is encrypted: give the key without a passphrase' : 'is not a private key in PEM form');
  }
  if (key) {
    const unsupported = keyTypeProblem(key);
    if (unsupported) problems.add(keyField, unsupported);
  }
  if (certificate && key && !problems.has(keyField) && !certificate.checkPrivateKey(key)) {
    problems.add(keyField, 'does not match the certificate');
  }
  if (certificate) {
    if (now > new Date(certificate.validTo)) problems.add(certificateField, `expired on ${new Date(certificate.validTo).toISOString()}`);
    else if (now < new Date(certificate.validFrom)) problems.add(certificateField, `is not valid until ${new Date(certificate.validFrom).toISOString()}`);
  }
  return problems.fields;
}

function keyTypeProblem(key: KeyObject): string | null {
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') {
    return (details.modulusLength ?? 0) >= 2048 ? null : `is RSA of ${details.modulusLength ?? 0} bits: KOD II needs RSA of 2048 bits or more, or EC P-256`;
  }
  if (key.asymmetricKeyType === 'ec') {
    return details.namedCurve === 'prime256v1' ? null : `is EC on ${details.namedCurve ?? 'an unknown curve'}: KOD II needs EC P-256 or RSA of 2048 bits or more`;
  }
  return `is ${key.asymmetricKeyType ?? 'of an unknown type'}: KOD II needs RSA of 2048 bits or more, or EC P-256`;
}

function parseCertificate(pem: string): X509Certificate | undefined {
  if (!/-----BEGIN CERTIFICATE-----/.test(pem)) return undefined;
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

/** What the settings answer of a stored certificate. */
export function offlineCertificateInfo(certificatePem: string, privateKeyPem: string): OfflineCertificateInfo | null {
  const certificate = parseCertificate(certificatePem);
  if (!certificate) return null;
  const type = createPrivateKey(privateKeyPem).asymmetricKeyType;
  return {
    serial_number: certificate.serialNumber.toUpperCase(),
    valid_from: new Date(certificate.validFrom).toISOString(),
    valid_to: new Date(certificate.validTo).toISOString(),
    key_type: type === 'ec' ? 'ec' : 'rsa',
  };
}

/** The stored certificate as KOD II signs with it, while it is in force at `now`; null otherwise. */
export function offlineSigner(certificatePem: string | null, privateKeyPem: string | null, now: Date): OfflineCertificate | null {
  if (!certificatePem || !privateKeyPem) return null;
  const certificate = parseCertificate(certificatePem);
  if (!certificate || now > new Date(certificate.validTo) || now < new Date(certificate.validFrom)) return null;
  return { serialNumber: certificate.serialNumber.toUpperCase(), privateKeyPem };
}

/**
 * What an invoice sent offline carries beside `gov_verification_link`: `ksef_offline` (KOD I reads
 * OFFLINE until KSeF numbers it) and KOD II, signed over the exact document just queued for it, when
 * the account's Offline certificate is in force. Kept in the invoice's document for the PDF and the
 * public page; the API answers neither.
 */
export async function offlineCodeFields(
  tx: Sql,
  invoiceId: number,
  settings: Pick<KsefSettings, 'offline_certificate' | 'offline_private_key'>,
  now: Date,
  localOrigin: string | undefined,
): Promise<{ ksef_offline: boolean; ksef_certificate_link: string | null }> {
  const signer = offlineSigner(settings.offline_certificate, settings.offline_private_key, now);
  if (!signer) return { ksef_offline: true, ksef_certificate_link: null };
  const job = await lastKsefJobDocument<KsefEnvironment>(tx, invoiceId);
  if (!job) return { ksef_offline: true, ksef_certificate_link: null };
  const link = certificateVerificationLink({ environment: job.environment, sellerNip: job.seller_nip, xml: job.xml, certificate: signer, ...(localOrigin ? { localOrigin } : {}) });
  return { ksef_offline: true, ksef_certificate_link: link };
}
