/**
 * A stand-in for the BFF's portal routes, for Storybook only: stories point `endpoint` at
 * `/storybook-bff/<scenario>` and this answers with generated invoices, so every visual state can be
 * shown without a server. The element tests never use it: they run against the real BFF.
 */

interface StandInInvoice {
  id: number;
  number: string;
  kind: string;
  status: 'paid' | 'partial' | 'unpaid' | 'overdue';
  issue_date: string;
  payment_to: string;
  currency: string;
  price_gross: string;
  paid: string;
  outstanding: string;
  payment_url: string | null;
  view_url: string;
}

const BASE = '/storybook-bff/';
const DAY = 86_400_000;
const iso = (time: number) => new Date(time).toISOString().slice(0, 10);
const centsText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** A small deterministic generator, so screenshots of a story look the same every time. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
}

function generate(count: number, currency = 'PLN'): StandInInvoice[] {
  const next = random(count);
  const today = Date.parse(iso(Date.now()));
  return Array.from({ length: count }, (_, i) => {
    const issued = today - Math.floor(i * (count > 100 ? 0.2 : 7.5) + next() * 3) * DAY;
    const due = issued + (next() < 0.5 ? 14 : 30) * DAY;
    const gross = Math.round(4_900 + next() * (next() < 0.2 ? 2_500_000 : 180_000));
    const roll = next();
    const paid = roll < 0.55 ? gross : roll < 0.7 ? Math.round(gross * 0.4) : 0;
    const status = paid >= gross ? 'paid' : due < today ? 'overdue' : paid > 0 ? 'partial' : 'unpaid';
    const id = 1000 + i;
    const year = new Date(issued).getUTCFullYear();
    return {
      id,
      number: `FV/${String(count - i).padStart(count > 999 ? 5 : 3, '0')}/${year}`,
      kind: 'vat',
      status,
      issue_date: iso(issued),
      payment_to: iso(due),
      currency,
      price_gross: centsText(gross),
      paid: centsText(paid),
      outstanding: centsText(gross - paid),
      payment_url: status === 'paid' ? null : `https://pay.invoicekit.example/i/${id}`,
      view_url: `https://invoices.invoicekit.example/i/${id}`,
    };
  });
}

const datasets: Record<string, () => StandInInvoice[]> = {
  mixed: () => generate(48),
  many: () => generate(10_000),
  euro: () => generate(12, 'EUR'),
  empty: () => [],
};
const cache = new Map<string, StandInInvoice[]>();

function inPeriod(date: string, period: string | null): boolean {
  if (!period || period === 'all') return true;
  const now = new Date();
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const ranges: Record<string, [number, number]> = {
    this_month: [Date.UTC(y, m, 1), Infinity],
    last_month: [Date.UTC(y, m - 1, 1), Date.UTC(y, m, 1) - 1],
    last_30_days: [Date.now() - 30 * DAY, Infinity],
    this_year: [Date.UTC(y, 0, 1), Infinity],
    last_year: [Date.UTC(y - 1, 0, 1), Date.UTC(y, 0, 1) - 1],
    last_12_months: [Date.now() - 365 * DAY, Infinity],
  };
  const [from, to] = ranges[period] ?? [-Infinity, Infinity];
  const time = Date.parse(date);
  return time >= from && time <= to;
}

const owes = (invoice: StandInInvoice) => invoice.status !== 'paid';
/** The BFF's filters: `outstanding` is everything with money due; `partial` and `unpaid` go by what was paid. */
const FILTERS: Record<string, (invoice: StandInInvoice) => boolean> = {
  outstanding: owes,
  overdue: (invoice) => invoice.status === 'overdue',
  paid: (invoice) => invoice.status === 'paid',
  partial: (invoice) => owes(invoice) && Number(invoice.paid) > 0,
  unpaid: (invoice) => owes(invoice) && Number(invoice.paid) === 0,
};

/** What the customer owes per currency, as the BFF's `totals` (amounts in cents, then as decimal text). */
function totalsOf(invoices: StandInInvoice[]) {
  const sums = new Map<string, { outstanding: number; outstanding_count: number; overdue: number; overdue_count: number }>();
  for (const invoice of invoices) {
    const entry = sums.get(invoice.currency) ?? { outstanding: 0, outstanding_count: 0, overdue: 0, overdue_count: 0 };
    sums.set(invoice.currency, entry);
    if (!owes(invoice)) continue;
    const left = Math.round(Number(invoice.outstanding) * 100);
    entry.outstanding += left;
    entry.outstanding_count += 1;
    if (invoice.status === 'overdue') {
      entry.overdue += left;
      entry.overdue_count += 1;
    }
  }
  return [...sums].map(([currency, each]) => ({ currency, ...each, outstanding: centsText(each.outstanding), overdue: centsText(each.overdue) }));
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function answer(scenario: string, route: string, query: URLSearchParams, signal?: AbortSignal | null): Promise<Response> | Response {
  if (scenario === 'loading') {
    return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
  }
  if (scenario === 'error') return json({ error: { code: 'service_unavailable', message: 'The invoicing service is not answering.' } }, 503);
  if (scenario === 'expired') return json({ error: { code: 'token_expired', message: 'The portal token has expired.' } }, 401);
  const pdfLink = /^invoices\/(\d+)\/pdf-link$/.exec(route);
  if (pdfLink) return json({ url: `https://invoices.invoicekit.example/pdf/${pdfLink[1]}?link=storybook`, expires_at: new Date(Date.now() + 300_000).toISOString() });
  const payment = /^invoices\/(\d+)\/payment$/.exec(route);
  if (payment) return json({ redirectUrl: `https://pay.invoicekit.example/checkout/${payment[1]}`, amount: '0', currency: 'PLN' }, 201);
  if (route !== 'invoices') return json({ error: { code: 'not_found', message: 'Not found.' } }, 404);

  if (!cache.has(scenario)) cache.set(scenario, (datasets[scenario] ?? datasets['mixed']!)());
  const [field = 'issue_date', direction = 'desc'] = (query.get('order') ?? 'issue_date.desc').split('.') as [keyof StandInInvoice, string];
  const search = query.get('search')?.toLowerCase();
  const sign = direction === 'asc' ? 1 : -1;
  const matching = cache
    .get(scenario)!
    .filter((invoice) => FILTERS[query.get('status') ?? '']?.(invoice) ?? true)
    .filter((invoice) => !search || invoice.number.toLowerCase().includes(search))
    .filter((invoice) => inPeriod(invoice.issue_date, query.get('period')))
    .sort((a, b) =>
      field === 'price_gross' ? sign * (Number(a.price_gross) - Number(b.price_gross)) : sign * String(a[field]).localeCompare(String(b[field])),
    );
  const page = Number(query.get('page') ?? 1);
  const perPage = Number(query.get('per_page') ?? 25);
  const data = matching.slice((page - 1) * perPage, page * perPage);
  if (query.get('totals') === 'false') return json({ data, page, per_page: perPage });
  return json({
    data,
    page,
    per_page: perPage,
    total: matching.length,
    total_pages: Math.ceil(matching.length / perPage),
    totals: totalsOf(cache.get(scenario)!),
  });
}

const STAND_IN_CLIENTS: Record<string, Record<string, unknown>> = {
  company: {
    id: 501, company: true, name: 'Nowak Design Sp. z o.o.', tax_no: '525-244-57-67', person: 'Ewa Nowak', email: 'faktury@nowak.example',
    phone: '+48 22 555 01 02', street: 'ul. Prosta 51', post_code: '00-838', city: 'Warszawa', country: 'PL', bank: 'mBank', bank_account: 'PL61 1090 1014 0000 0712 1981 2874',
  },
  person: {
    id: 502, company: false, name: 'Anna Kowalska', tax_no: null, person: null, email: 'anna.kowalska@mail.example',
    phone: null, street: 'ul. Święty Marcin 3', post_code: '61-001', city: 'Poznań', country: 'PL', bank: null, bank_account: null,
  },
};

/**
 * The client routes: `client-company` and `client-person` answer a stored client and save what is sent,
 * `client-saving` never finishes a save, `client-invalid` refuses it as the service would, `signup` creates.
 */
async function clientAnswer(scenario: string, request: Request): Promise<Response> {
  const stored = STAND_IN_CLIENTS[scenario.replace(/^client-/, '')] ?? STAND_IN_CLIENTS['company']!;
  if (request.method === 'GET') return json(stored);
  const body = (await request.json()) as Record<string, unknown>;
  if (scenario === 'client-saving') return new Promise(() => {});
  if (scenario === 'client-invalid') {
    return json({ error: { code: 'validation_failed', message: 'Some fields are not valid.', fields: { bank: ['is too long (maximum is 200 characters)'], tax_no: ['is not a valid NIP (the check digit does not match)'] } } }, 422);
  }
  if (request.method === 'POST') return json({ client: { id: 777, company: true, ...body } }, 201);
  Object.assign(stored, body);
  return json(stored);
}

export function installBffStandIn(): void {
  const realFetch = globalThis.fetch.bind(globalThis);
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    if (!url.pathname.startsWith(BASE)) return realFetch(input, init);
    const [scenario = 'mixed', ...route] = url.pathname.slice(BASE.length).split('/');
    // A little latency, so loading states are visible the way they are on a real network.
    await new Promise((resolve) => setTimeout(resolve, scenario === 'many' ? 150 : 350));
    if (request.signal.aborted) throw new DOMException('aborted', 'AbortError');
    if (/^clients?$/.test(route.join('/')) && !['loading', 'error', 'expired'].includes(scenario)) return clientAnswer(scenario, request);
    return answer(scenario, route.join('/'), url.searchParams, request.signal);
  };
}
