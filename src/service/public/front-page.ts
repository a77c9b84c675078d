import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import { adminLangOf, type AdminLang } from '../admin/shell.js';
import { html, page } from '../documents/html.js';
import { ApiError, type ServiceEnv } from '../http.js';

/**
 * The service's own address, `/`: a short page for a person who opens it in a browser, naming the
 * service and linking the back office, the OpenAPI description and the health check, in English or
 * Polish by `Accept-Language`. It has no script, and its one inline style is allowed by its hash.
 * A client that does not ask for HTML (an API client's `Accept: application/json`) gets the
 * interface's JSON 404, as on any path no route claims.
 */
const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; line-height: 1.5; }
  body { margin: 0; }
  main { max-width: 40rem; margin: 0 auto; padding: clamp(1rem, 5vw, 3rem); }
  h1 { font-size: 1.6rem; margin: 0 0 0.5rem; letter-spacing: -0.02em; }
  ul { padding-left: 1.2rem; }
  li { margin: 0.4rem 0; }
  a:focus-visible { outline: 2px solid currentColor; outline-offset: 2px; }
`;

export const FRONT_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src data:",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': FRONT_PAGE_CSP,
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-cache',
  vary: 'Accept, Accept-Language',
} as const;

const WORDS: Record<AdminLang, { title: string; lead: string; admin: string; openapi: string; health: string }> = {
  en: {
    title: 'invoicekit invoicing service',
    lead: 'This address serves the invoicing API. Its operations are listed in the OpenAPI description.',
    admin: 'Back office: sign in to issue invoices and manage your account',
    openapi: 'OpenAPI description of the API',
    health: 'Health check',
  },
  pl: {
    title: 'Usługa fakturowania invoicekit',
    lead: 'Pod tym adresem działa API do fakturowania. Jego operacje opisuje dokument OpenAPI.',
    admin: 'Panel sprzedawcy: zaloguj się, aby wystawiać faktury i zarządzać kontem',
    openapi: 'Opis API w formacie OpenAPI',
    health: 'Stan usługi',
  },
};

export function frontPage(lang: AdminLang): string {
  const words = WORDS[lang];
  return page({
    title: words.title,
    lang,
    style: STYLE,
    body: html`<h1>${words.title}</h1>
<p>${words.lead}</p>
<ul>
<li><a href="/admin/">${words.admin}</a></li>
<li><a href="/openapi.json">${words.openapi}</a></li>
<li><a href="/healthz">${words.health}</a></li>
</ul>`,
  });
}

/** True when the client names `text/html` in `Accept` with a weight above zero (a browser does). */
export function asksForHtml(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((item) => {
    const [type = '', ...params] = item.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    return type.trim() === 'text/html' && (q === undefined || Number(q) > 0);
  });
}

export function mountFrontPage(app: Hono<ServiceEnv>): void {
  app.get('/', (c) => {
    const { pathname } = new URL(c.req.url);
    if (pathname !== '/' || !asksForHtml(c.req.header('accept'))) throw new ApiError(404, 'Not found');
    return c.body(frontPage(adminLangOf(c.req.header('accept-language'))), 200, HEADERS);
  });
}
