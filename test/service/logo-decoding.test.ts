import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32, createDeflate, deflateSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlainInvoice } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { makePng } from './support/images.js';

/**
 * Findings 3 and 9 of issue 42: the upload checked only a PNG's header, so a 1 MiB logo inflated
 * to 1 GiB in the renderer, and a bad filter byte made every PDF of its department a 500. Now a logo
 * is decoded under limits at upload (a 422 naming the field), stored normalized, and the renderer
 * skips a stored logo it cannot draw.
 */
const run = promisify(execFile);
let service: TestService;
let departmentId: number;
let accountId: number;
let workDir: string;

beforeAll(async () => {
  service = await startTestService();
  workDir = await mkdtemp(join(tmpdir(), 'invoicekit-logo-'));
  const departments = (await (await fetch(`${service.url}/departments.json?api_token=${service.apiToken}`)).json()) as { id: number }[];
  departmentId = departments[0]!.id;
  accountId = (await service.db.query<{ id: number }>(`select id from accounts where prefix = $1`, [service.prefix]))[0]!.id;
});
afterAll(async () => {
  await service.stop();
  await rm(workDir, { recursive: true, force: true });
});

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

function png(header: { width: number; height: number; depth?: number; colour?: number }, idat: Buffer, extra: Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(header.width, 0);
  ihdr.writeUInt32BE(header.height, 4);
  ihdr[8] = header.depth ?? 8;
  ihdr[9] = header.colour ?? 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), ...extra, chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** The image data of a PNG made by `makePng`, inflated. */
const pixelsOf = (file: Buffer) => inflateSync(file.subarray(33 + 8, file.length - 12));

function upload(file: Buffer) {
  const form = new FormData();
  form.set('api_token', service.apiToken);
  form.set('department[logo]', new Blob([new Uint8Array(file)]), 'logo.png');
  return fetch(`${service.url}/departments/${departmentId}.json`, { method: 'PUT', body: form });
}

async function refusal(file: Buffer): Promise<unknown> {
  const response = await upload(file);
  return [response.status, await response.json()];
}

const field = (message: string) => [422, { code: 'error', message: { 'department.logo': [message] } }];

/** An IDAT stream that inflates to `bytes` zero bytes, made without holding them. */
async function zipBomb(bytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < bytes; written += zeros.length) {
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(parts);
}

describe('a logo is decoded under limits at upload', () => {
  it('refuses a bad filter byte, a truncated or damaged IDAT, and a bad CRC, naming the field', async () => {
    const good = makePng(16, 8);
    const rows = pixelsOf(good);
    const badFilter = Buffer.from(rows);
    badFilter[(16 * 3 + 1) * 2] = 7;
    expect(await refusal(png({ width: 16, height: 8 }, deflateSync(badFilter)))).toEqual(field('is a damaged PNG (row 3 has the unknown filter 7)'));
    expect(await refusal(png({ width: 16, height: 8 }, deflateSync(rows.subarray(0, rows.length - 40))))).toEqual(field('is a truncated PNG (its image data ends early)'));
    const compressed = deflateSync(rows);
    expect(await refusal(png({ width: 16, height: 8 }, compressed.subarray(0, compressed.length >> 1)))).toEqual(field('is a truncated PNG (its image data ends early)'));
    const badCrc = Buffer.from(good);
    badCrc[good.length - 20] ^= 0xff;
    expect(await refusal(badCrc)).toEqual(field('is a damaged PNG (the IDAT chunk fails its checksum)'));
    expect(await refusal(good.subarray(0, 40))).toEqual(field('is a truncated PNG'));
    expect(await refusal(png({ width: 5000, height: 1 }, deflateSync(Buffer.alloc(5001 * 3))))).toEqual(field('is 5000 × 1 pixels: at most 4194304 pixels and 4096 per side are accepted'));
  });

  it('refuses a 1 MiB PNG that inflates to 1 GiB, and keeps answering meanwhile', async () => {
    const bomb = png({ width: 512, height: 512 }, await zipBomb(1024 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const started = performance.now();
    const pending = refusal(bomb);
    const other = await fetch(`${service.url}/invoices.json?api_token=${service.apiToken}`);
    expect(other.status).toBe(200);
    expect(await pending).toEqual(field('is a damaged PNG (its image data inflates past its pixels)'));
    expect(performance.now() - started).toBeLessThan(5000);
  }, 60_000);

  it('stores a palette PNG with transparency as plain 8-bit RGBA, and a plain RGB PNG as it came', async () => {
    // 2 × 1 pixels, 8-bit palette: red (opaque) and a transparent blue.
    const palette = chunk('PLTE', Buffer.from([255, 0, 0, 0, 0, 255]));
    const alpha = chunk('tRNS', Buffer.from([255, 0]));
    const indexed = png({ width: 2, height: 1, colour: 3 }, deflateSync(Buffer.from([0, 0, 1])), [palette, alpha]);
    expect((await upload(indexed)).status).toBe(200);
    const stored = Buffer.from(await (await fetch(`${service.url}/departments/${departmentId}/logo?api_token=${service.apiToken}`)).arrayBuffer());
    expect([stored.readUInt32BE(16), stored.readUInt32BE(20), stored[24], stored[25], stored[28]]).toEqual([2, 1, 8, 6, 0]);
    expect([...pixelsOf(stored)]).toEqual([0, 255, 0, 0, 255, 0, 0, 255, 0]);
    const plain = makePng(40, 20);
    expect((await upload(plain)).status).toBe(200);
    const served = Buffer.from(await (await fetch(`${service.url}/departments/${departmentId}/logo?api_token=${service.apiToken}`)).arrayBuffer());
    expect(served.equals(plain)).toBe(true);
  });
});

describe('a stored logo the renderer cannot draw', () => {
  it('is left out of the PDF, which is still a 200', async () => {
    const invoiceId = await createPlainInvoice(service, 'Legacy Logo SA');
    const rows = Buffer.from(pixelsOf(makePng(16, 8)));
    rows[0] = 9;
    await service.db.query(
      `insert into department_logos (department_id, account_id, content_type, content) values ($1, $2, 'image/png', $3)
       on conflict (department_id) do update set content = excluded.content, content_type = excluded.content_type`,
      [departmentId, accountId, png({ width: 16, height: 8 }, deflateSync(rows))],
    );
    const response = await fetch(`${service.url}/invoices/${invoiceId}.pdf?api_token=${service.apiToken}`);
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    const file = join(workDir, 'legacy.pdf');
    await writeFile(file, new Uint8Array(await response.arrayBuffer()));
    const { stdout } = await run('pdfimages', ['-list', file]);
    expect(stdout.split('\n').slice(2).filter((line) => line.trim())).toEqual([]);
  });
});
