import '../../src/elements/client-form/define.js';
import '../../src/elements/invoice-list/define.js';
import { t } from './i18n.js';
import { announce, type DemoSession, signIn } from './session.js';

const list = document.querySelector('invoice-list')!;
const owed = document.querySelector<HTMLElement>('#owed')!;
const details = document.querySelector('client-form')!;

interface CurrencyTotals {
  currency: string;
  outstanding: string;
  overdue: string;
}

let session: DemoSession | undefined;
let totals: CurrencyTotals[] = [];

function money(amount: string, currency: string): string {
  // Intl reads the decimal string itself, so no binary float touches the amount shown.
  return new Intl.NumberFormat(document.documentElement.lang, { style: 'currency', currency }).format(amount as unknown as number);
}

const isZero = (amount: string) => /^[-+]?0*(\.0*)?$/.test(amount);

/** Outstanding and overdue sums per currency, as the BFF totals them for this customer. */
function renderOwed(): void {
  const owing = totals.filter((entry) => !isZero(entry.outstanding));
  if (owing.length === 0) {
    owed.replaceChildren(Object.assign(document.createElement('p'), { className: 'settled', textContent: t('portal.nothingOwed') }));
    return;
  }
  owed.replaceChildren(
    ...owing.map((entry) => {
      const card = document.createElement('div');
      card.className = 'owed-card';
      card.dataset.currency = entry.currency;
      const overdue = !isZero(entry.overdue);
      card.innerHTML = `
        <span class="label"></span><strong class="amount"></strong>
        <span class="overdue" ${overdue ? '' : 'hidden'}></span>`;
      card.querySelector('.label')!.textContent = `${t('portal.outstanding')} · ${entry.currency}`;
      card.querySelector('.amount')!.textContent = money(entry.outstanding, entry.currency);
      card.querySelector('.overdue')!.textContent = `${t('portal.overdue')}: ${money(entry.overdue, entry.currency)}`;
      return card;
    }),
  );
}

async function loadTotals(current: DemoSession): Promise<void> {
  const response = await fetch('/bff/invoices?per_page=1', { headers: { authorization: `Bearer ${current.token}` } });
  if (!response.ok) throw new Error(`${response.status}`);
  const body = (await response.json()) as { totals?: CurrencyTotals[] };
  totals = body.totals ?? [];
  renderOwed();
}

/**
 * The list's query lives in the URL (`?status=paid&search=FV&page=2`), so Reload, a shared link and
 * Back show what the customer was looking at. Each change the customer makes is a history entry;
 * typing on in the search box replaces the entry its first word made, so Back does not replay
 * every pause. Defaults stay out of the URL.
 */
const QUERY = { status: '', period: 'all', search: '', order: 'issue_date.desc', page: '1' } as const;
type QueryKey = keyof typeof QUERY;
const QUERY_KEYS = Object.keys(QUERY) as QueryKey[];

function restoreQuery(): void {
  const params = new URLSearchParams(location.search);
  const value = (key: QueryKey) => params.get(key) ?? QUERY[key];
  // Set whole: the list keeps the page when the filters come with it, and fires no event for code.
  Object.assign(list, {
    status: value('status'),
    period: value('period'),
    search: value('search'),
    order: value('order'),
    page: Number(value('page')) || 1,
  });
}

list.addEventListener('invoice-query-change', ({ detail }) => {
  const url = new URL(location.href);
  const before = new URLSearchParams(url.search);
  for (const key of QUERY_KEYS) {
    const value = String(detail[key]);
    if (value === QUERY[key]) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  const changed = QUERY_KEYS.filter((key) => before.get(key) !== url.searchParams.get(key));
  if (!changed.length) return;
  const typing = changed.length === 1 && changed[0] === 'search';
  const state = { search: typing };
  if (typing && (history.state as typeof state | null)?.search) history.replaceState(state, '', url);
  else history.pushState(state, '', url);
});
addEventListener('popstate', restoreQuery);
restoreQuery();

/** After the payment page sends the customer back, the outcome comes from the server, not the URL. */
function reportReturn(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has('payment')) return;
  // The list's query stays; only the payment's outcome leaves the URL.
  url.searchParams.delete('payment');
  history.replaceState(history.state, '', url);
  void (async () => {
    if (session) await loadTotals(session);
  })();
}

document.addEventListener('demo-language', () => renderOwed());

let events: EventSource | undefined;

/**
 * The BFF streams this customer's invoice changes, so a payment shows without polling. EventSource
 * can only put credentials in its URL, so the page trades the portal token (sent in a header) for a
 * one-minute ticket that opens the stream and nothing else; a stream the BFF closed is reopened
 * with a fresh ticket.
 */
async function openEvents(current: DemoSession, retryMs = 1000): Promise<void> {
  events?.close();
  events = undefined;
  const answer = await fetch('/bff/events/ticket', { method: 'POST', headers: { authorization: `Bearer ${current.token}` } }).catch(() => undefined);
  if (session !== current) return;
  if (!answer?.ok) {
    // No stream (an expired session, a BFF without webhooks): the list still loads on demand.
    if (answer && answer.status < 500 && answer.status !== 429) return;
    setTimeout(() => void openEvents(current, Math.min(retryMs * 2, 60_000)), retryMs);
    return;
  }
  const { ticket } = (await answer.json()) as { ticket: string };
  const stream = new EventSource(`/bff/events?ticket=${encodeURIComponent(ticket)}`);
  events = stream;
  for (const type of ['invoice.created', 'invoice.updated']) {
    stream.addEventListener(type, () => {
      void list.reload();
      void loadTotals(current).catch(() => undefined);
    });
  }
  stream.addEventListener('ready', () => (retryMs = 1000));
  stream.addEventListener('error', () => {
    // EventSource retries a dropped stream with the same URL, whose ticket lasts a minute: closed, it gets a new one.
    if (stream.readyState === EventSource.CLOSED && events === stream) setTimeout(() => void openEvents(current, Math.min(retryMs * 2, 60_000)), retryMs);
  });
}
/**
 * The customer the demo's server rendered the list for, with a token of its own (src/dev-portal-page.ts):
 * signed in as them, the list keeps that token and the page it shows, with no second load.
 */
let rendered = list.dataset.customer;
signIn((current) => {
  if (!current) return;
  session = current;
  if (current.customer.id !== rendered) list.setAttribute('portal-token', current.token);
  rendered = undefined;
  details.setAttribute('portal-token', current.token);
  loadTotals(current).catch(() => announce(t('portal.signInFailed'), 'error'));
  void openEvents(current);
})
  .then(reportReturn)
  .catch(() => announce(t('portal.signInFailed'), 'error'));
