import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api, NOT_FOUND, secondAccount } from '../helpers/http.js';

let service: TestService;
let http: Api;

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
});
afterAll(() => service.stop());

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** The files of a ZIP archive, read from its local headers. */
function unzip(zip: Buffer): Record<string, string> {
  const files: Record<string, string> = {};
  let at = 0;
  while (zip.readUInt32LE(at) === 0x04034b50) {
    const size = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const extra = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    const start = at + 30 + nameLength + extra;
    files[name] = inflateRawSync(zip.subarray(start, start + size)).toString('latin1');
    at = start + size;
  }
  return files;
}

async function invoice() {
  const reply = await http.post('/invoices.json', {
    invoice: { buyer_name: 'Klient1 Sp. z o.o.', positions: [{ name: 'Produkt A1', tax: 23, total_price_gross: 10.23, quantity: 1 }] },
  });
  return reply.body as { id: number; number: string };
}

describe('invoice attachments', () => {
  it('take the documentation’s three steps: credentials, upload, add_attachment; then the ZIP', async () => {
    const { id } = await invoice();
    const credentials = await http.get(`/invoices/${id}/get_new_attachment_credentials.json`);
    expect(credentials.status).toBe(200);
    expect(credentials.body).toEqual({
      url: `${service.url}/attachments/uploads`,
      AWSAccessKeyId: 'invoicekit',
      key: expect.stringMatching(/^uploads\/[A-Za-z0-9_-]{32}$/),
      policy: expect.any(String),
      signature: expect.any(String),
      acl: 'private',
      success_action_status: '201',
    });
    const c = credentials.body;
    const form = new FormData();
    for (const field of ['AWSAccessKeyId', 'key', 'policy', 'signature', 'acl', 'success_action_status']) form.append(field, c[field]);
    form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'umowa.pdf');
    const upload = await fetch(c.url, { method: 'POST', body: form });
    expect(upload.status).toBe(201);
    expect(await upload.text()).toContain(`<Key>${c.key}</Key>`);

    const added = await http.post(`/invoices/${id}/add_attachment.json?file_name=umowa.pdf`, {});
    expect(added.status, added.text).toBe(201);
    expect(added.body).toEqual({ id: expect.any(Number), invoice_id: id, file_name: 'umowa.pdf', content_type: 'application/pdf', size: PDF.length, created_at: expect.any(String) });

    // One step: the file itself in a multipart add_attachment.
    const direct = new FormData();
    direct.append('api_token', service.apiToken);
    direct.append('file', new Blob([PNG], { type: 'image/png' }), 'stamp.png');
    const second = await http.raw('POST', `/invoices/${id}/add_attachment.json`, { body: direct });
    expect(second.status, second.text).toBe(201);
    expect(second.body).toMatchObject({ file_name: 'stamp.png', content_type: 'image/png', size: PNG.length });

    const read = (await http.get(`/invoices/${id}.json`)).body;
    expect(read).toMatchObject({ attachments_count: 2, has_attachments: true });
    expect((await http.get(`/invoices/${id}/attachments.json`)).body.map((a: { file_name: string }) => a.file_name)).toEqual(['umowa.pdf', 'stamp.png']);

    const zip = await fetch(`${service.url}/invoices/${id}/attachments_zip.json?api_token=${service.apiToken}`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const files = unzip(Buffer.from(await zip.arrayBuffer()));
    expect(Object.keys(files)).toEqual(['umowa.pdf', 'stamp.png']);
    expect(files['umowa.pdf']).toBe(PDF.toString('latin1'));
    expect(files['stamp.png']).toBe(PNG.toString('latin1'));
  });

  it('refuses files of other types (by their bytes), too large, unknown keys and other accounts', async () => {
    const { id } = await invoice();
    const send = async (content: Buffer, name: string) => {
      const form = new FormData();
      form.append('api_token', service.apiToken);
      form.append('file', new Blob([new Uint8Array(content)]), name);
      return http.raw('POST', `/invoices/${id}/add_attachment.json`, { body: form });
    };
    const exe = await send(Buffer.from('MZ\x90\x00\x03\x00\x00\x00binary', 'latin1'), 'invoice.pdf');
    expect(exe.status).toBe(422);
    expect(exe.body).toEqual({ code: 'error', message: { file: [expect.stringMatching(/must be a PDF/)] } });
    expect((await send(Buffer.from('<script>alert(1)</script>'), 'page.html')).status).toBe(422);
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    big.write('%PDF-1.4');
    const tooBig = await send(big, 'big.pdf');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ code: 'error', message: 'The file is larger than 10 MiB' });
    expect((await http.get(`/invoices/${id}.json`)).body.attachments_count).toBe(0);

    const form = new FormData();
    form.append('key', 'uploads/not-a-key');
    form.append('file', new Blob([PDF]), 'a.pdf');
    expect((await http.raw('POST', '/attachments/uploads', { body: form })).status).toBe(403);
    const nothing = await http.post(`/invoices/${id}/add_attachment.json?file_name=never.pdf`, {});
    expect(nothing.body).toEqual({ code: 'error', message: { file_name: ['names no file uploaded for this invoice'] } });
    const other = await secondAccount(service, 'attach-other');
    expect((await other.get(`/invoices/${id}/get_new_attachment_credentials.json`)).body).toEqual(NOT_FOUND);
    expect((await other.get(`/invoices/${id}/attachments_zip.json`)).body).toEqual(NOT_FOUND);
  });
});
