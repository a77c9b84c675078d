import { constants, verify, X509Certificate } from 'node:crypto';
import { Hono } from 'hono';
import { sha256Base64Url } from '../gateway.js';
import type { DoubleState, StoredCertificate } from './state.js';
import { certificatePage, type CertificateCheck, verificationPage } from './verification-page.js';

/**
 * The double's verification pages, where KOD I and KOD II QR codes lead: an invoice found by its
 * seller, date and hash; a certificate's link checked as KSeF checks it.
 */
export function verificationApp(state: DoubleState, clock: () => Date): Hono {
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
  return qr;
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
