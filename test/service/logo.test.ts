import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { makePng } from './support/images.js';

let service: TestService;
let departmentId: number;
beforeAll(async () => {
  service = await startTestService();
  const departments = (await (await fetch(`${service.url}/departments.json?api_token=${service.apiToken}`)).json()) as { id: number }[];
  departmentId = departments[0]!.id;
});
afterAll(() => service.stop());

function upload(file: Blob, filename: string, token = service.apiToken, id = departmentId, extra: Record<string, string> = {}) {
  const form = new FormData();
  form.set('api_token', token);
  form.set('department[logo]', file, filename);
  for (const [key, value] of Object.entries(extra)) form.set(key, value);
  return fetch(`${service.url}/departments/${id}.json`, { method: 'PUT', body: form });
}

/** A real 8 × 8 JPEG: logos are checked by the pixel size in their header, so the header must be there. */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAIAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABQb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCKALXj/9k=',
  'base64',
);

describe('department logo (spec §4.9)', () => {
  it('accepts a PNG, records it on the department and serves it back', async () => {
    const png = makePng(64, 32);
    const response = await upload(new Blob([new Uint8Array(png)], { type: 'image/png' }), 'logo.png', service.apiToken, departmentId, {
      'department[name]': 'Demo Studio (Kraków branch)',
    });
    expect(response.status).toBe(200);
    const department = (await response.json()) as { id: number; name: string; logo_url: string };
    expect(department.id).toBe(departmentId);
    expect(department.name).toBe('Demo Studio (Kraków branch)');
    expect(department.logo_url).toMatch(new RegExp(`/departments/${departmentId}/logo\\?v=`));
    const served = await fetch(`${service.url}/departments/${departmentId}/logo?api_token=${service.apiToken}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it('accepts a JPEG whatever its name says', async () => {
    const response = await upload(new Blob([new Uint8Array(JPEG)]), 'photo.bin');
    expect(response.status).toBe(200);
    const served = await fetch(`${service.url}/departments/${departmentId}/logo?api_token=${service.apiToken}`);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
  });

  it('refuses a text file named .png with 422', async () => {
    const response = await upload(new Blob(['just some text, not an image'], { type: 'image/png' }), 'logo.png');
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ code: 'error', message: { 'department.logo': ['must be a PNG or JPEG image'] } });
  });

  it('refuses a 3 MiB image with 413', async () => {
    const big = makePng(1024, 1024, { noise: true });
    expect(big.length).toBeGreaterThan(3 * 1024 * 1024 - 1);
    const response = await upload(new Blob([new Uint8Array(big)], { type: 'image/png' }), 'big.png');
    expect(response.status).toBe(413);
    expect(((await response.json()) as { code: string }).code).toBe('error');
  });

  it('asks for the file when it is missing, and keeps other accounts out', async () => {
    const form = new FormData();
    form.set('api_token', service.apiToken);
    form.set('department[name]', 'x');
    const missing = await fetch(`${service.url}/departments/${departmentId}.json`, { method: 'PUT', body: form });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({ code: 'error', message: { 'department.logo': ["can't be blank"] } });
    const wrongToken = await upload(new Blob([new Uint8Array(makePng(8, 8))]), 'logo.png', 'not-a-token');
    expect(wrongToken.status).toBe(401);
    const unknown = await upload(new Blob([new Uint8Array(makePng(8, 8))]), 'logo.png', service.apiToken, 999_999);
    expect(unknown.status).toBe(404);
  });
});
