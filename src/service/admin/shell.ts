import type { Hono } from 'hono';
import { ApiError, type ServiceEnv } from '../http.js';
import { html } from '../documents/html.js';
import { adminBundle } from './bundle.js';

/**
 * The back office's page: one HTML shell for every path under `/admin/` (the app routes in the
 * browser), in the language the browser asks for, and the script it loads. Scripts come from this
 * origin only (no inline script anywhere), and the page is never framed.
 */
export type AdminLang = 'en' | 'pl';

export const ADMIN_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  // Lit adopts its styles as constructed sheets; a view may still set an inline `style`.
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self'",
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SHELL_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': ADMIN_CSP,
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cache-control': 'no-cache',
  vary: 'Accept-Language',
} as const;

const TITLES: Record<AdminLang, { title: string; noscript: string }> = {
  en: { title: 'Back office · invoicekit', noscript: 'The back office needs JavaScript.' },
  pl: { title: 'Panel sprzedawcy · invoicekit', noscript: 'Panel sprzedawcy wymaga JavaScriptu.' },
};

/** The first of Polish and English in the browser's `Accept-Language`, by its weights; English otherwise. */
export function adminLangOf(header: string | undefined): AdminLang {
  const ranked = (header ?? '')
    .split(',')
    .map((item, index) => {
      const [tag = '', ...params] = item.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { lang: tag.trim().toLowerCase().split('-')[0], weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((item) => (item.lang === 'pl' || item.lang === 'en') && item.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked[0]?.lang === 'pl' ? 'pl' : 'en';
}

export function adminShell(lang: AdminLang): string {
  const words = TITLES[lang];
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${words.title}</title>
<link rel="icon" href="data:,">
<script type="module" src="/admin/assets/admin.js"></script>
</head>
<body>
<ik-admin-app></ik-admin-app>
<noscript>${words.noscript}</noscript>
</body>
</html>
`.text;
}

export function mountAdminAssets(assets: Hono<ServiceEnv>): void {
  assets.get('/admin', async (c) => {
    // Only `admin.js`: the route path drops the extension, so `admin.css` would land here too.
    if (!new URL(c.req.url).pathname.endsWith('/admin.js')) throw new ApiError(404, 'Not found');
    const bundle = await adminBundle().catch(() => undefined);
    if (!bundle) throw new ApiError(503, 'The back office is not built: run `npm run build`', undefined, { 'retry-after': '5' });
    const etag = `"${bundle.hash}"`;
    const headers = { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', etag };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    return c.body(bundle.code, 200, headers);
  });
  assets.all('*', () => {
    throw new ApiError(404, 'Not found');
  });
}

export function mountAdminShell(admin: Hono<ServiceEnv>): void {
  admin.get('*', (c) => c.body(adminShell(adminLangOf(c.req.header('accept-language'))), 200, SHELL_HEADERS));
}
