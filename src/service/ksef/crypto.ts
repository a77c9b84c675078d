import { constants, createCipheriv, createDecipheriv, createPublicKey, privateDecrypt, publicEncrypt, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';

/**
 * KSeF's cryptography, both ways: the client encrypts with the Ministry's public keys, the bundled
 * double decrypts with its own. RSA-OAEP with SHA-256 (MGF1 SHA-256) for the KSeF token and for the
 * session key; AES-256-CBC with PKCS#7 padding for the invoice.
 */

/** A certificate from `GET /security/public-key-certificates`: Base64 DER, X.509 (or a bare SPKI key). */
export function publicKeyOfCertificate(base64Der: string): KeyObject {
  const der = Buffer.from(base64Der, 'base64');
  try {
    return new X509Certificate(der).publicKey;
  } catch {
    return createPublicKey({ key: der, format: 'der', type: 'spki' });
  }
}

export function rsaOaepEncrypt(publicKey: KeyObject, plain: Uint8Array): Buffer {
  return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, plain);
}

export function rsaOaepDecrypt(privateKey: KeyObject, encrypted: Uint8Array): Buffer {
  return privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, encrypted);
}

/** `{token}|{timestampMs}`, encrypted for `POST /auth/ksef-token`, Base64. */
export function encryptKsefToken(publicKey: KeyObject, token: string, challengeTimestampMs: number): string {
  return rsaOaepEncrypt(publicKey, Buffer.from(`${token}|${challengeTimestampMs}`, 'utf8')).toString('base64');
}

export interface SessionKey {
  readonly key: Buffer;
  readonly iv: Buffer;
}

/** A fresh AES-256 key and IV for one online session. */
export function newSessionKey(): SessionKey {
  return { key: randomBytes(32), iv: randomBytes(16) };
}

export function aesEncrypt(session: SessionKey, plain: Uint8Array): Buffer {
  const cipher = createCipheriv('aes-256-cbc', session.key, session.iv);
  return Buffer.concat([cipher.update(plain), cipher.final()]);
}

export function aesDecrypt(session: SessionKey, encrypted: Uint8Array): Buffer {
  const decipher = createDecipheriv('aes-256-cbc', session.key, session.iv);
  return Buffer.concat([decipher.update(encrypted), decipher.final()]);
}
