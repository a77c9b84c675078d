import type { Hono } from 'hono';
import type * as z from 'zod';
import { ksefSettingsInput } from '../../api/schemas/ksef.js';
import { type ServiceEnv, idParam, invalid, notFound, respond, validate } from '../http.js';
import { requireRow } from '../store.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { askedToSend, requestSend } from './invoices.js';
import type { KsefRuntime } from './runtime.js';
import { offlineCertificateInfo, offlineCertificateProblems } from './offline-certificate.js';
import { type KsefSettings, readKsefSettings, writeKsefSettings } from './settings.js';
import { readPaymentSettings, realMoneyField } from '../data/payment-settings.js';
import { sentKsefDocuments } from '../data/ksef-jobs.js';

/**
 * KSeF's routes beside the invoices': the account's settings, `GET /invoices/{id}.json?send_to_ksef=yes`
 * (sends, then answers the invoice as a read does) and the documents, `GET /invoices/{id}/attachment`
 * with `kind=gov` (the FA(3) XML exactly as sent) or `kind=gov_upo` (KSeF's official receipt).
 * Mounted before the invoices' own routes.
 */
export function mountKsef(groups: { invoices: Hono<ServiceEnv>; settings: Hono<ServiceEnv> }, runtime: KsefRuntime): void {
  mountKsefSettings(groups.settings, { localAvailable: () => runtime.localOrigin() !== undefined, clock: () => runtime.clock() });

  groups.invoices.get('/:id', async (c, next) => {
    if (!askedToSend(c.req.query(), {}, ['send_to_ksef'])) return next();
    const account = c.get('account');
    const id = idParam(c);
    await c.get('db').transaction(async (tx) => requestSend(tx, account, await requireRow<InvoiceData>(tx, 'invoices', account.id, id, { forUpdate: true }), runtime));
    return next();
  });

  groups.invoices.get('/:id/attachment', async (c) => {
    const account = c.get('account');
    const id = idParam(c);
    const kind = c.req.query('kind');
    if (kind !== 'gov' && kind !== 'gov_upo') throw notFound();
    await requireRow(c.get('db'), 'invoices', account.id, id);
    const sent = await sentKsefDocuments(c.get('db'), account.id, id);
    const document = kind === 'gov' ? sent?.xml : sent?.upo;
    if (!document) throw notFound();
    return c.body(document, 200, {
      'content-type': 'text/xml; charset=utf-8',
      'content-disposition': `attachment; filename="${kind === 'gov' ? 'ksef' : 'upo'}-${id}.xml"`,
      'cache-control': 'private, no-store',
    });
  });
}

/**
 * A certificate and key about to be set: both given, usable for KOD II and each other's. Answers the
 * problems by field; removing them (null or an empty string in either) has none.
 */
function offlineCertificateInputProblems(change: z.output<typeof ksefSettingsInput>, now: Date): Record<string, string[]> {
  const certificate = change.offline_certificate?.trim() || null;
  const key = change.offline_private_key?.trim() || null;
  if (certificate === null && key === null) return {};
  if (certificate === null) return { 'ksef.offline_certificate': ['is required with offline_private_key'] };
  if (key === null) return { 'ksef.offline_private_key': ['is required with offline_certificate'] };
  return offlineCertificateProblems(certificate, key, now);
}

/** The settings as answered: the token and the certificate's key only as whether they are set. */
function presentKsefSettings(settings: KsefSettings) {
  const certificate =
    settings.offline_certificate && settings.offline_private_key ? offlineCertificateInfo(settings.offline_certificate, settings.offline_private_key) : null;
  return {
    ksef: {
      environment: settings.environment,
      token_set: settings.token !== null,
      auto_send_mode: settings.auto_send_mode,
      validate_invoices_for_gov: settings.validate_invoices_for_gov,
      offline_certificate_set: certificate !== null,
      offline_certificate: certificate,
    },
  };
}

function mountKsefSettings(app: Hono<ServiceEnv>, options: { localAvailable: () => boolean; clock: () => Date }): void {
  app.get('/', async (c) => respond(c, presentKsefSettings(await readKsefSettings(c.get('db'), c.get('account').id))));
  app.put('/', async (c) => {
    const body = c.get('body');
    const given = body.ksef === undefined ? body : body.ksef;
    const change = validate(ksefSettingsInput, given, 'ksef');
    if (change.environment === 'local' && !options.localAvailable()) {
      throw invalid({ 'ksef.environment': ['local needs the bundled KSeF (start the service with --ksef-local)'] });
    }
    if (change.environment === 'local') {
      const real = realMoneyField(await readPaymentSettings(c.get('db'), c.get('account').id));
      if (real) {
        throw invalid({
          'ksef.environment': [`cannot be local while the account takes real payments (${real} ${real === 'stripe.secret_key' ? 'is a live key' : 'is off'}): the local KSeF is a test double that never runs beside real money`],
        });
      }
    }
    const problems = offlineCertificateInputProblems(change, options.clock());
    if (Object.keys(problems).length > 0) throw invalid(problems);
    const settings = await c.get('db').transaction((tx) => writeKsefSettings(tx, c.get('account').id, change));
    return respond(c, presentKsefSettings(settings));
  });
}
