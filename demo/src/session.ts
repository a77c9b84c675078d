import './nav.js';

/**
 * The demo's stand-in for a shop's own sign-in: pick a customer, and the demo server (the shop's
 * backend) mints a short-lived portal token for them. A real host does this after its own login.
 */
export interface DemoSession {
  token: string;
  customer: { id: string; name: string; email: string | null };
}

const STORAGE_KEY = 'invoicekit-demo-customer';

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  return (await response.json()) as T;
}

/** The chosen customer, kept for the page and told to the server, which renders the portal's list for them (src/dev-portal-page.ts). */
function remember(customer: string): void {
  localStorage.setItem(STORAGE_KEY, customer);
  document.cookie = `${STORAGE_KEY}=${encodeURIComponent(customer)}; path=/; SameSite=Lax`;
}

/** The value of the shop's "guest" choice: buying without signing in. */
const GUEST = '';

/**
 * Signs in as the chosen demo customer, the same one on every page. `guest` (the shop) adds a choice
 * to buy without signing in, which calls `onChange(undefined)`; the portal falls back to a customer.
 */
export async function signIn(onChange: (session: DemoSession | undefined) => void, options: { guest?: string } = {}): Promise<void> {
  const select = document.querySelector<HTMLSelectElement>('#customer');
  const customers = await json<{ id: string; client_id: number; name: string }[]>(await fetch('/demo-api/customers'));
  // `?customer=<client id>` (the back office's "Open portal view") views as that customer, and stays chosen.
  const asked = customers.find((c) => String(c.client_id) === new URLSearchParams(location.search).get('customer'));
  if (asked) remember(asked.id);
  const stored = localStorage.getItem(STORAGE_KEY);
  const known = stored !== null && (customers.some((c) => c.id === stored) || (options.guest !== undefined && stored === GUEST));
  const chosen = known ? stored : (customers[0]?.id ?? GUEST);
  if (chosen !== GUEST) remember(chosen);
  if (select) {
    const choices = customers.map((c) => new Option(c.name, c.id, false, c.id === chosen));
    if (options.guest !== undefined) choices.unshift(new Option(options.guest, GUEST, false, chosen === GUEST));
    select.replaceChildren(...choices);
    select.addEventListener('change', () => {
      remember(select.value);
      void load(select.value);
    });
  }
  // Only the latest choice wins: a slow sign-in for an earlier choice must not land after a later one.
  let latest = 0;
  const load = async (customer: string) => {
    const mine = ++latest;
    const session = customer === GUEST ? undefined : await json<DemoSession>(await fetch(`/demo-api/session?customer=${encodeURIComponent(customer)}`));
    if (mine === latest) onChange(session);
  };
  await load(chosen);
}

/** Says `message` in the page's live region, with `actions` (a link, a button) after it. */
export function announce(message: string, kind: 'ok' | 'error' = 'ok', ...actions: Node[]): void {
  const status = document.querySelector('#status');
  if (!status) return;
  const notice = document.createElement('p');
  notice.className = 'notice';
  notice.dataset.kind = kind;
  notice.append(message, ...actions.flatMap((action) => [' ', action]));
  status.replaceChildren(notice);
}
