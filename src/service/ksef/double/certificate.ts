import { createPublicKey, randomBytes, sign, type KeyObject, X509Certificate } from 'node:crypto';
import { sha256Base64 } from '../gateway.js';

/**
 * A minimal self-signed X.509 v3 certificate (RSA or EC P-256, SHA-256), DER-encoded: what the double
 * serves from its certificates endpoint, as KSeF serves the Ministry's, and the Offline certificates
 * it issues to sellers for KOD II. Node makes keys but not certificates, and the few ASN.1 structures
 * needed are short enough to write here.
 */
export function selfSignedCertificate(input: {
  readonly privateKey: KeyObject;
  readonly commonName: string;
  readonly validFrom: Date;
  readonly validTo: Date;
  /** The serial number's bytes; 8 random ones by default. */
  readonly serial?: Buffer;
}): Buffer {
  // sha256WithRSAEncryption (with its NULL parameters) or ecdsa-with-SHA256 (without).
  const algorithm =
    input.privateKey.asymmetricKeyType === 'ec' ? sequence(oid('1.2.840.10045.4.3.2')) : sequence(oid('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]));
  const name = sequence(set(sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(input.commonName, 'utf8')))));
  const serial = input.serial ?? randomBytes(8);
  // Positive, and with no leading zero byte: DER wants the shortest form, KSeF prints 16 hex digits.
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x10;
  const spki = createPublicKey(input.privateKey).export({ format: 'der', type: 'spki' });
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([0x02]))),
    tlv(0x02, serial),
    algorithm,
    name,
    sequence(time(input.validFrom), time(input.validTo)),
    name,
    spki,
  );
  const signature = sign('sha256', tbs, input.privateKey);
  return sequence(tbs, algorithm, tlv(0x03, Buffer.concat([Buffer.from([0x00]), signature])));
}

function tlv(tag: number, content: Buffer): Buffer {
  const length = content.length;
  let header: number[];
  if (length < 0x80) header = [length];
  else {
    const bytes: number[] = [];
    for (let rest = length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
    header = [0x80 | bytes.length, ...bytes];
  }
  return Buffer.concat([Buffer.from([tag, ...header]), content]);
}

const sequence = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const value of rest) {
    const chunk: number[] = [];
    for (let v = value; ; v = Math.floor(v / 128)) {
      chunk.unshift((v % 128) | (chunk.length ? 0x80 : 0));
      if (v < 128) break;
    }
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime before 2050, GeneralizedTime after, as RFC 5280 asks. */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

/**
 * The double's own encryption certificates, as KSeF serves the Ministry's at
 * `/security/public-key-certificates`: one for KSeF tokens, one for the symmetric keys of sessions.
 */
export function encryptionCertificates(tokenKey: KeyObject, symmetricKey: KeyObject) {
  const validFrom = new Date(Date.UTC(2025, 0, 1));
  const validTo = new Date(Date.UTC(2035, 0, 1));
  const make = (key: KeyObject, usage: string) => {
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
  return [make(tokenKey, 'KsefTokenEncryption'), make(symmetricKey, 'SymmetricKeyEncryption')];
}
