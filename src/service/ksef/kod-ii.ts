import { constants, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { ksefHosts, sha256Base64Url, type KsefEnvironment } from './gateway.js';

/** A KSeF certificate of the Offline kind: its serial number and its private key (PEM). */
export interface OfflineCertificate {
  /** The certificate's serial number, hex, as KSeF prints it (`01F20A5D352AE590`). */
  readonly serialNumber: string;
  /** PKCS#8 or PKCS#1/SEC1 PEM; RSA (2048 bits or more) or EC P-256. Never logged. */
  readonly privateKeyPem: string;
}

/**
 * KOD II, for invoices issued offline:
 * `{qr}/certificate/{context type}/{context}/{seller NIP}/{serial}/{SHA-256 of the XML}/{signature}`.
 * The signature covers the link without `https://` and without the signature itself: RSASSA-PSS
 * (SHA-256, MGF1 SHA-256, 32-byte salt) or ECDSA P-256 in IEEE P1363 form, Base64URL.
 */
export function certificateVerificationLink(input: {
  readonly environment: KsefEnvironment;
  readonly sellerNip: string;
  readonly xml: string | Uint8Array;
  readonly certificate: OfflineCertificate;
  /** The login context; the seller's NIP unless someone invoices on the seller's behalf. */
  readonly context?: { readonly type: 'Nip' | 'InternalId' | 'NipVatUe' | 'PeppolId'; readonly value: string };
  readonly localOrigin?: string;
}): string {
  const { qrBaseUrl } = ksefHosts(input.environment, input.localOrigin);
  const context = input.context ?? { type: 'Nip', value: input.sellerNip };
  const link = `${qrBaseUrl}/certificate/${context.type}/${context.value}/${input.sellerNip}/${input.certificate.serialNumber}/${sha256Base64Url(input.xml)}`;
  const signed = link.replace(/^https?:\/\//, '');
  return `${link}/${signLinkPart(signed, createPrivateKey(input.certificate.privateKeyPem))}`;
}

function signLinkPart(data: string, key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') {
    return sign('sha256', Buffer.from(data), {
      key,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: 32,
    }).toString('base64url');
  }
  if (key.asymmetricKeyType === 'ec') {
    return sign('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  }
  throw new RangeError(`A KSeF certificate key is RSA or EC P-256, not ${key.asymmetricKeyType ?? 'unknown'}`);
}
