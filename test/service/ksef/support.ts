import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import type { RunningKsefDouble } from '../../../src/service/ksef/double/server.js';
import { schemaPaths } from '../../../src/service/ksef/schemas.js';
import type { TestService } from '../../helpers/service.js';

const run = promisify(execFile);

/** Validates a document with the system `xmllint` against the shipped copy of an official schema. */
export async function xmllint(xml: string, schema: 'fa3' | 'upo' = 'fa3'): Promise<{ valid: boolean; errors: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'ksef-xml-'));
  const file = join(dir, 'document.xml');
  await writeFile(file, xml);
  try {
    await run('xmllint', ['--noout', '--nonet', '--schema', schemaPaths[schema], file], {
      env: { ...process.env, XML_CATALOG_FILES: schemaPaths.catalog },
    });
    return { valid: true, errors: '' };
  } catch (error) {
    return { valid: false, errors: String((error as { stderr?: string }).stderr ?? error) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const reader = new XMLParser({ ignoreAttributes: true, parseTagValue: false, isArray: (name) => ['FaWiersz', 'ZamowienieWiersz', 'FakturaZaliczkowa', 'DodatkowyOpis'].includes(name) });

/** An FA(3) document read back into plain objects (values as text), for checks of its meaning. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function readFa3(xml: string): any {
  return (reader.parse(xml) as { Faktura: unknown }).Faktura;
}

/**
 * Every QR code printed on a PDF's pages, read back the way a phone would: pdftoppm at 200 dpi, then
 * zbarimg. The pages are written as plain grey maps: a PNG's compression was nine tenths of the
 * rendering's time, and zbarimg reads in grey either way.
 */
export async function qrCodesOfPdf(pdf: Uint8Array): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'ksef-pdf-'));
  try {
    await writeFile(join(dir, 'invoice.pdf'), pdf);
    await run('pdftoppm', ['-r', '200', '-gray', join(dir, 'invoice.pdf'), join(dir, 'page')]);
    const pages = (await readdir(dir)).filter((name) => name.endsWith('.pgm')).sort();
    const codes: string[] = [];
    for (const page of pages) {
      const found = await run('zbarimg', ['--raw', '-q', join(dir, page)]).then(
        ({ stdout }) => stdout,
        // zbarimg exits with 4 when a page has no code.
        (error: { code?: number; stdout?: string }) => (error.code === 4 ? '' : Promise.reject(error)),
      );
      codes.push(...found.split('\n').filter(Boolean));
    }
    return codes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The text of a PDF, as pdftotext reads it. */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ksef-pdf-'));
  try {
    await writeFile(join(dir, 'invoice.pdf'), pdf);
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', join(dir, 'invoice.pdf'), '-']);
    return stdout.replace(/\s+/g, ' ');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The release of each double's held processing, while its decisions wait for `deliverQueue`. */
const heldDecisions = new WeakMap<RunningKsefDouble, () => void>();

/**
 * Makes `deliverQueue` the only time the double decides. A send request kicks the service's sender,
 * which submits the invoice in the background a moment later; on a fast turn the double could accept
 * it before the test has looked at it on its way (the OFFLINE label, a held e-mail, a correction that
 * must wait). With the double's processing held in between, "on its way" lasts until the test
 * delivers, however the background work and the test's own requests interleave.
 */
export function holdKsefDecisions(ksef: RunningKsefDouble): void {
  if (!heldDecisions.has(ksef)) heldDecisions.set(ksef, ksef.holdProcessing());
}

/** Lets a held double decide again: before `close()`, which waits for every invoice it holds. */
export function releaseKsefDecisions(ksef: RunningKsefDouble): void {
  heldDecisions.get(ksef)?.();
  heldDecisions.delete(ksef);
}

/**
 * Works a test service's KSeF queue until KSeF has decided (the double processes each invoice on
 * its own): the sender runs by hand, and jobs waiting for a later attempt are made due at `now`.
 * A double held by `holdKsefDecisions` decides during the delivery and is held again after it.
 */
export async function deliverQueue(ksef: RunningKsefDouble, service: TestService, now: Date): Promise<void> {
  const release = heldDecisions.get(ksef);
  release?.();
  try {
    for (let round = 0; round < 5; round += 1) {
      await ksef.settled();
      await service.ksefSender.runOnce();
      const pending = await service.db.query(`select 1 from ksef_jobs where state in ('queued', 'submitted')`);
      if (pending.length === 0) return;
      await service.db.query(`update ksef_jobs set next_attempt_at = $1 where state in ('queued', 'submitted')`, [now]);
    }
  } finally {
    if (release) heldDecisions.set(ksef, ksef.holdProcessing());
  }
}

/** The seller every KSeF test invoices as: a Polish VAT payer with a valid NIP. */
export const sellerNip = '5252248481';
export const seller = { seller_name: 'Demo Studio Sp. z o.o.', seller_tax_no: sellerNip, seller_street: 'ul. Prosta 51', seller_post_code: '00-838', seller_city: 'Warszawa', seller_country: 'PL' };
/** A Polish company buyer, the case KSeF is mandatory for. */
export const buyer = { buyer_name: 'Klient ABC Sp. z o.o.', buyer_tax_no: '9876543210', buyer_company: true, buyer_street: 'ul. Testowa 5', buyer_post_code: '00-002', buyer_city: 'Kraków', buyer_country: 'PL' };
