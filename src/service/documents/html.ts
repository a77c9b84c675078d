/** Safe HTML for the service's few pages: every interpolated value is escaped unless marked raw. */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function part(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(part).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  return new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? part(values[i]) : ''), ''));
}

const PAGE_STYLE = `
  :root { color-scheme: light dark; --bg: #f5f6fa; --surface: #fff; --text: #151922; --muted: #5b6475;
    --border: #e2e5ec; --accent: #4f46e5; --ok: #1a7f4b; --warn: #b45309; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
  @media (prefers-color-scheme: dark) { :root { --bg: #0f1117; --surface: #171a23; --text: #e8eaf0; --muted: #a0a8b8; --border: #2a2f3c; --accent: #8b85ff; --ok: #3dd68c; --warn: #f5a524; } }
  * { box-sizing: border-box; }
  body { margin: 0; background: var(--bg); color: var(--text); line-height: 1.5; }
  main { max-width: 52rem; margin: 0 auto; padding: clamp(1rem, 4vw, 2.5rem); }
  .sheet { background: var(--surface); border: 1px solid var(--border); border-radius: 16px; padding: clamp(1.25rem, 4vw, 2.25rem); }
  h1 { font-size: clamp(1.35rem, 3vw, 1.75rem); margin: 0; letter-spacing: -0.02em; }
  .muted { color: var(--muted); }
  .row { display: flex; flex-wrap: wrap; gap: 1rem 2rem; justify-content: space-between; align-items: flex-start; }
  .parties { display: grid; gap: 1.5rem; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); margin: 1.75rem 0; }
  .parties h2, .section h2, .tax-notes h2 { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); margin: 0 0 0.35rem; }
  table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
  th, td { padding: 0.6rem 0.5rem; border-bottom: 1px solid var(--border); text-align: left; vertical-align: top; }
  th { font-size: 0.8rem; color: var(--muted); font-weight: 600; }
  td.num, th.num { text-align: right; white-space: nowrap; }
  .totals { margin-left: auto; max-width: 22rem; margin-top: 1rem; }
  .totals div { display: flex; justify-content: space-between; gap: 1rem; padding: 0.25rem 0; }
  .totals .due { font-size: 1.15rem; font-weight: 700; border-top: 1px solid var(--border); padding-top: 0.6rem; margin-top: 0.3rem; }
  .tax-notes { margin-top: 1.5rem; }
  .tax-notes ul { margin: 0; padding-left: 1.1rem; }
  .ksef-qr { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; margin-top: 1.5rem; }
  .ksef-qr figure { margin: 0; }
  .ksef-qr .ksef-test { flex-basis: 100%; margin: 0; }
  .actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1.75rem; }
  .button { display: inline-flex; align-items: center; justify-content: center; gap: 0.4rem; font: inherit; font-weight: 600;
    padding: 0.7rem 1.2rem; border-radius: 10px; text-decoration: none; border: 1px solid var(--border); color: var(--text); background: transparent; cursor: pointer; }
  .button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
  .button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
  .badge { display: inline-block; padding: 0.15rem 0.6rem; border-radius: 999px; font-size: 0.8rem; font-weight: 600; border: 1px solid currentColor; }
  .badge.paid { color: var(--ok); } .badge.due { color: var(--warn); }
  .notice { border: 1px solid var(--ok); border-radius: 10px; padding: 0.75rem 1rem; margin-bottom: 1.25rem; }
  .facts { display: grid; gap: 0.5rem 1.5rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 16rem), 1fr)); margin: 1.25rem 0 0; }
  .facts dt { font-size: 0.8rem; color: var(--muted); font-weight: 600; }
  .facts dd { margin: 0; overflow-wrap: anywhere; font-variant-numeric: tabular-nums; }
  .notice p { margin: 0; }
  .amount { font-size: clamp(1.75rem, 5vw, 2.5rem); font-weight: 700; letter-spacing: -0.02em; margin: 0.5rem 0 1rem; font-variant-numeric: tabular-nums; }
  @media (max-width: 34rem) { .hide-narrow { display: none; } th, td { padding: 0.5rem 0.3rem; } }
`;

/** A whole HTML document; `style` replaces the default look (the outbox has its own). */
export function page(options: { title: string; lang: string; body: Html; style?: string }): string {
  return html`<!doctype html>
<html lang="${options.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${options.title}</title>
<style>${new Html(options.style ?? PAGE_STYLE)}</style>
</head>
<body><main>${options.body}</main></body>
</html>`.text;
}

/** Security headers for the service's HTML pages: no scripts, no framing, no referrer leaking tokens. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
} as const;
