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

/** After the payment page sends the customer back, the outcome comes from the server, not the URL. */
function reportReturn(): void {
  const params = new URLSearchParams(location.search);
  if (!params.has('payment')) return;
  history.replaceState(null, '', location.pathname);
  void (async () => {
    if (session) await loadTotals(session);
  })();
}

document.addEventListener('demo-language', () => renderOwed());

let events: EventSource | undefined;
signIn((current) => {
  if (!current) return;
  session = current;
  list.setAttribute('portal-token', current.token);
  details.setAttribute('portal-token', current.token);
  loadTotals(current).catch(() => announce(t('portal.signInFailed'), 'error'));
  // The BFF streams this customer's invoice changes: a payment shows without polling.
  events?.close();
  events = new EventSource(`/bff/events?portal_token=${encodeURIComponent(current.token)}`);
  for (const type of ['invoice.created', 'invoice.updated']) {
    events.addEventListener(type, () => {
      void list.reload();
      void loadTotals(current).catch(() => undefined);
    });
  }
})
  .then(reportReturn)
  .catch(() => announce(t('portal.signInFailed'), 'error'));
