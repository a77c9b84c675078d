import type { Hono } from 'hono';
import { z } from 'zod';
import { accountOf } from '../auth.js';
import { type Account, type ServiceContext, type ServiceEnv, splitExtension, unauthorized, validate } from '../http.js';
import { type OutboxAccess, outboxSessionCookie, OUTBOX_LINK_TTL_SECONDS } from './outbox-access.js';
import { timestampText } from '../store.js';
import { escapeHtml, Html, page as documentPage } from './html.js';
import type { Mailer } from './mailer.js';
import { contentDisposition } from './pdf.js';
import { outboxAttachment, type OutboxAttachmentRow, outboxAttachments, outboxMessage, type OutboxMessageRow, outboxPage } from '../data/outbox.js';

const PER_PAGE = 30;
const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });

/** The outbox pages answer JSON only when `.json` is asked for by name; without an extension they are HTML. */
const wantsJson = (c: ServiceContext) => splitExtension(new URL(c.req.url).pathname).format === 'json';

/** `2026-01-12 14:03 UTC`: the same for every reader of the page. */
function shownTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function shownSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";
/** The stored HTML body is shown in a sandbox: no scripts, no forms, no access to this origin. */
const BODY_POLICY = "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data: https:";

const STYLES = `
  :root { color-scheme: light; --text: #1f2933; --muted: #6b7683; --rule: #d5dae1; --accent: #1d4ed8; --band: #f4f6f9; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: var(--text); background: var(--band); }
  main { max-width: 980px; margin: 0 auto; padding: 32px 20px 48px; }
  header.page { display: flex; align-items: baseline; justify-content: space-between; gap: 16px; flex-wrap: wrap; margin-bottom: 8px; }
  h1 { font-size: 24px; margin: 0; }
  h2 { font-size: 20px; margin: 0 0 16px; overflow-wrap: anywhere; }
  p.note { color: var(--muted); margin: 0 0 20px; }
  a { color: var(--accent); }
  a:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; border-radius: 2px; }
  .card { background: #fff; border: 1px solid var(--rule); border-radius: 8px; overflow: hidden; }
  table { width: 100%; border-collapse: collapse; }
  th, td { text-align: left; padding: 10px 14px; border-bottom: 1px solid var(--rule); vertical-align: top; }
  th { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); background: #fafbfc; font-weight: 600; }
  tr:last-child td { border-bottom: none; }
  td.date { white-space: nowrap; color: var(--muted); font-variant-numeric: tabular-nums; }
  td.to { overflow-wrap: break-word; }
  td.subject a { font-weight: 600; text-decoration: none; }
  td.subject a:hover { text-decoration: underline; }
  td.files { white-space: nowrap; color: var(--muted); }
  .empty { padding: 32px; text-align: center; color: var(--muted); }
  nav.pages { display: flex; justify-content: space-between; margin-top: 16px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 0; padding: 18px 20px; }
  dt { color: var(--muted); }
  dd { margin: 0; overflow-wrap: anywhere; }
  section { margin-top: 20px; }
  section h3 { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 0 0 8px; }
  ul.files { list-style: none; margin: 0; padding: 0; }
  ul.files li { padding: 10px 14px; border-bottom: 1px solid var(--rule); display: flex; justify-content: space-between; gap: 12px; }
  ul.files li:last-child { border-bottom: none; }
  iframe { display: block; width: 100%; height: 560px; border: 0; background: #fff; }
  pre { margin: 0; padding: 16px 20px; white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.5 ui-monospace, Menlo, Consolas, monospace; }
  details summary { cursor: pointer; color: var(--muted); margin-bottom: 8px; }
  /* On a phone each message is a block: date, recipients, then the subject that opens it. */
  @media (max-width: 640px) {
    thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
    table, tbody, tr, td { display: block; }
    tr { padding: 12px 14px; border-bottom: 1px solid var(--rule); }
    tr:last-child { border-bottom: none; }
    td { padding: 0; border: 0; }
    td.subject { margin-top: 4px; font-size: 16px; }
    td.subject a { display: block; padding: 6px 0; }
  }
`;

function page(title: string, body: string): string {
  return documentPage({ title, lang: 'en', body: new Html(body), style: STYLES });
}

function html(c: ServiceContext, markup: string, status: 200 | 401 | 404 = 200): Response {
  return c.body(markup, status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': PAGE_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
}

function notFoundPage(c: ServiceContext): Response {
  if (wantsJson(c)) return c.json({ code: 'error', message: 'Not found' }, 404);
  return html(c, page('Message not found', `<h1>Message not found</h1><p class="note">There is no message at this address.</p><p><a href="../outbox">Back to the outbox</a></p>`), 404);
}

const TOKEN = /^[A-Za-z0-9_-]{8,64}$/;

async function findMessage(c: ServiceContext, account: Account, token: string): Promise<OutboxMessageRow | undefined> {
  if (!TOKEN.test(token)) return undefined;
  return outboxMessage(c.get('db'), account.id, token);
}

function signInPage(c: ServiceContext, staleLink = false): Response {
  if (wantsJson(c)) return c.json(unauthorized().body, 401);
  // A link opens the outbox for 15 minutes: one kept in a tab or a bookmark comes here afterwards.
  const stale = staleLink
    ? `<h1>This outbox link has expired</h1>
<p class="note">A link to the outbox opens it for 15 minutes, and this one is older or not valid. Open the outbox again
from where you found the link: the demo's header makes a fresh one each time.</p>`
    : '<h1>The outbox is private</h1>';
  return html(
    c,
    page(
      staleLink ? 'Outbox: link expired' : 'Outbox: sign in',
      `${stale}
<p class="note">It shows an account's e-mail only to that account. Open it from a link made for the account
(<code>POST /outbox/links.json</code> with the account's api_token answers one; <code>npm start</code> prints one for the demo account),
or send the api_token with the request.</p>`,
    ),
    401,
  );
}

function presentMessage(row: OutboxMessageRow, attachments?: OutboxAttachmentRow[]) {
  return {
    token: row.token,
    invoice_id: row.invoice_id,
    from: row.sender,
    reply_to: row.reply_to,
    to: row.recipients.to,
    cc: row.recipients.cc,
    subject: row.subject,
    created_at: timestampText(row.created_at),
    attachments: attachments
      ? attachments.map((a) => ({ id: a.id, filename: a.filename, content_type: a.content_type, size: a.size, url: `${row.token}/attachments/${a.id}` }))
      : row.attachments,
  };
}

/**
 * `GET /outbox`: the messages the service would have sent when no SMTP server is configured, newest
 * first, each opening with its body and attachments, so a demo shows what a buyer would receive.
 * It exists only without SMTP (a development tool) and shows an account's messages only to that
 * account: its api_token (the usual places, in the usual order), or a short-lived signed link made
 * with it (`POST /outbox/links`), which the browser then keeps as a cookie for this path only.
 */
export function mountOutbox(app: Hono<ServiceEnv>, mailer: Mailer, access: OutboxAccess): void {
  /** The account whose outbox this request may read, or a sign-in answer. */
  async function reader(c: ServiceContext): Promise<Account | Response> {
    const key = c.req.query('key');
    if (key !== undefined) {
      const account = await access.verifyLink(c.get('db'), key);
      if (!account) return signInPage(c, true);
      if (wantsJson(c)) return account;
      // The key leaves the address bar (and the history) at once; the session cookie carries on.
      const clean = new URL(c.req.url);
      clean.searchParams.delete('key');
      c.header('set-cookie', outboxSessionCookie(await access.sessionFor(account), clean.protocol === 'https:'));
      c.header('referrer-policy', 'no-referrer');
      c.header('cache-control', 'no-store');
      return c.redirect(`${clean.pathname}${clean.search}`, 303);
    }
    const session = await access.verifySession(c.get('db'), c.req.header('cookie'));
    if (session) return session;
    return (await accountOf(c)) ?? signInPage(c);
  }

  app.post('/links', async (c) => {
    const account = await accountOf(c);
    if (!account) throw unauthorized();
    const key = await access.linkFor(account);
    const url = new URL(`/outbox?key=${encodeURIComponent(key)}`, c.get('config').publicUrl).toString();
    return c.json({ url, expires_at: new Date(Date.now() + OUTBOX_LINK_TTL_SECONDS * 1000).toISOString() }, 201);
  });

  app.get('/', async (c) => {
    const account = await reader(c);
    if (account instanceof Response) return account;
    const { page: pageNumber } = validate(pageQuery, c.req.query());
    const rows = await outboxPage(c.get('db'), account.id, PER_PAGE + 1, (pageNumber - 1) * PER_PAGE);
    const more = rows.length > PER_PAGE;
    const shown = rows.slice(0, PER_PAGE);
    if (wantsJson(c)) return c.json(shown.map((row) => presentMessage(row)));

    const note =
      mailer.transport === 'smtp'
        ? 'E-mail is sent through the configured SMTP server. Messages sent that way are not kept here.'
        : 'No SMTP server is configured, so the invoices sent by e-mail are kept here instead: this is what each buyer would receive.';
    const list =
      shown.length === 0
        ? `<div class="empty">No messages yet. Send an invoice by e-mail and it appears here.</div>`
        : `<table>
<thead><tr><th scope="col">Date</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Files</th></tr></thead>
<tbody>
${shown
  .map((row) => {
    const recipients = [...row.recipients.to, ...row.recipients.cc.map((cc) => `cc: ${cc}`)];
    return `<tr>
<td class="date"><time datetime="${escapeHtml(timestampText(row.created_at))}">${escapeHtml(shownTime(row.created_at))}</time></td>
<td class="to">${recipients.map(escapeHtml).join('<br>')}</td>
<td class="subject"><a href="outbox/${escapeHtml(row.token)}">${escapeHtml(row.subject)}</a></td>
<td class="files">${row.attachments > 0 ? `${row.attachments} ${row.attachments === 1 ? 'file' : 'files'}` : ''}</td>
</tr>`;
  })
  .join('\n')}
</tbody>
</table>`;
    const pager =
      pageNumber > 1 || more
        ? `<nav class="pages" aria-label="Pages">${pageNumber > 1 ? `<a href="outbox?page=${pageNumber - 1}">← Newer</a>` : '<span></span>'}${
            more ? `<a href="outbox?page=${pageNumber + 1}">Older →</a>` : ''
          }</nav>`
        : '';
    return html(
      c,
      page('Outbox', `<header class="page"><h1>Outbox</h1></header>
<p class="note">${escapeHtml(note)}</p>
<div class="card">${list}</div>
${pager}`),
    );
  });

  app.get('/:token', async (c) => {
    const account = await reader(c);
    if (account instanceof Response) return account;
    const row = await findMessage(c, account, c.req.param('token'));
    if (!row) return notFoundPage(c);
    const attachments = await outboxAttachments(c.get('db'), row.id);
    if (wantsJson(c)) return c.json({ ...presentMessage(row, attachments), text_body: row.text_body, html_body: row.html_body });

    const headers: [string, string][] = [
      ['From', row.sender],
      ...(row.reply_to ? [['Reply-To', row.reply_to] as [string, string]] : []),
      ['To', row.recipients.to.join(', ')],
      ...(row.recipients.cc.length > 0 ? [['Cc', row.recipients.cc.join(', ')] as [string, string]] : []),
      ['Date', shownTime(row.created_at)],
    ];
    const files =
      attachments.length === 0
        ? ''
        : `<section><h3>Attachments</h3><div class="card"><ul class="files">${attachments
            .map(
              (a) =>
                `<li><a href="${escapeHtml(row.token)}/attachments/${a.id}">${escapeHtml(a.filename)}</a><span class="note">${escapeHtml(
                  a.content_type,
                )} · ${shownSize(a.size)}</span></li>`,
            )
            .join('')}</ul></div></section>`;
    const body = row.html_body
      ? `<section><h3>Message</h3><div class="card"><iframe src="${escapeHtml(row.token)}/body" title="The message as the buyer sees it" sandbox="allow-popups allow-popups-to-escape-sandbox"></iframe></div></section>
<section><details><summary>Plain-text version</summary><div class="card"><pre>${escapeHtml(row.text_body)}</pre></div></details></section>`
      : `<section><h3>Message</h3><div class="card"><pre>${escapeHtml(row.text_body)}</pre></div></section>`;
    return html(
      c,
      page(row.subject, `<p><a href="../outbox">← Outbox</a></p>
<h2>${escapeHtml(row.subject)}</h2>
<div class="card"><dl>${headers.map(([name, value]) => `<dt>${name}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl></div>
${files}
${body}`),
    );
  });

  app.get('/:token/body', async (c) => {
    const account = await reader(c);
    if (account instanceof Response) return account;
    const row = await findMessage(c, account, c.req.param('token'));
    if (!row?.html_body) return notFoundPage(c);
    return c.body(row.html_body, 200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': BODY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
  });

  app.get('/:token/attachments/:id', async (c) => {
    const account = await reader(c);
    if (account instanceof Response) return account;
    const token = c.req.param('token');
    const id = c.req.param('id');
    if (!TOKEN.test(token) || !/^\d{1,9}$/.test(id)) return notFoundPage(c);
    const attachment = await outboxAttachment(c.get('db'), account.id, token, Number(id));
    if (!attachment) return notFoundPage(c);
    // A PDF opens in the browser; anything else is only ever downloaded.
    const inline = attachment.content_type === 'application/pdf';
    return c.body(new Uint8Array(attachment.content), 200, {
      'content-type': inline ? 'application/pdf' : 'application/octet-stream',
      'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', attachment.filename),
      'content-length': String(attachment.content.length),
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
  });
}
