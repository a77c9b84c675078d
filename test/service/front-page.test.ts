import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('the service\'s front page', () => {
  it('answers a browser with a short English page linking the back office, the OpenAPI description and the health check', async () => {
    const response = await fetch(`${service.url}/`, { headers: { accept: BROWSER_ACCEPT } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('vary')).toBe('Accept, Accept-Language');
    const body = await response.text();
    expect(body).toContain('<html lang="en">');
    expect(body).toContain('<title>invoicekit invoicing service</title>');
    expect(body).toContain('<h1>invoicekit invoicing service</h1>');
    expect(body).toContain('<a href="/admin/">Back office: sign in to issue invoices and manage your account</a>');
    expect(body).toContain('<a href="/openapi.json">OpenAPI description of the API</a>');
    expect(body).toContain('<a href="/healthz">Health check</a>');
    expect(body).not.toContain('<script');
    expect(body.match(/href="[^"]*"/g)).toEqual(['href="data:,"', 'href="/admin/"', 'href="/openapi.json"', 'href="/healthz"']);
  });

  it('has a strict policy: nothing loads but its one style, allowed by that style\'s hash', async () => {
    const response = await fetch(`${service.url}/`, { headers: { accept: BROWSER_ACCEPT } });
    const body = await response.text();
    const style = /<style>([\s\S]*?)<\/style>/.exec(body)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(response.headers.get('content-security-policy')).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
    );
    expect(body.match(/<style>/g)).toHaveLength(1);
  });

  it('speaks Polish to a browser that prefers it', async () => {
    const response = await fetch(`${service.url}/`, { headers: { accept: 'text/html', 'accept-language': 'pl-PL,pl;q=0.9,en;q=0.8' } });
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).toContain('<html lang="pl">');
    expect(body).toContain('<h1>Usługa fakturowania invoicekit</h1>');
    expect(body).toContain('<a href="/admin/">Panel sprzedawcy: zaloguj się, aby wystawiać faktury i zarządzać kontem</a>');
    expect(body).toContain('<a href="/openapi.json">Opis API w formacie OpenAPI</a>');
    expect(body).toContain('<a href="/healthz">Stan usługi</a>');
  });

  it('keeps English when English weighs more than Polish', async () => {
    const response = await fetch(`${service.url}/`, { headers: { accept: 'text/html', 'accept-language': 'pl;q=0.5, en-GB' } });
    expect(await response.text()).toContain('<html lang="en">');
  });

  it('answers a JSON client, and a client that asks for nothing in particular, with the interface\'s JSON 404', async () => {
    for (const accept of ['application/json', '*/*', 'text/html;q=0, application/json']) {
      const response = await fetch(`${service.url}/`, { headers: { accept } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ code: 'error', message: 'Not found' });
    }
  });

  it('is `/` alone: `/.json` and other unknown paths stay 404s for a browser too', async () => {
    for (const path of ['/.json', '/index.html', '/nothing-here']) {
      const response = await fetch(`${service.url}${path}`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ code: 'error', message: 'Not found' });
    }
  });

  it('answers HEAD like GET, with no body', async () => {
    const response = await fetch(`${service.url}/`, { method: 'HEAD', headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toBe('');
  });
});
