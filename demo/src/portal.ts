import '../../src/elements/invoice-list/define.js';
import { announce, signIn } from './session.js';

const list = document.querySelector('invoice-list')!;
const locale = document.querySelector<HTMLSelectElement>('#locale')!;
locale.value = document.documentElement.lang.startsWith('pl') ? 'pl' : 'en';
locale.addEventListener('change', () => list.setAttribute('locale', locale.value));

list.addEventListener('invoice-pay', (event) => announce(`Opening the payment page for ${event.detail.invoice.number}…`));
list.addEventListener('invoice-download', (event) => announce(`Downloading ${event.detail.invoice.number}.pdf`));

let events: EventSource | undefined;
signIn((session) => {
  list.setAttribute('portal-token', session.token);
  // The BFF streams this customer's invoice changes: a payment shows without polling.
  events?.close();
  events = new EventSource(`/bff/events?portal_token=${encodeURIComponent(session.token)}`);
  for (const type of ['invoice.created', 'invoice.updated']) events.addEventListener(type, () => void list.reload());
}).catch((error: unknown) => announce(`The demo could not sign in: ${String(error)}`, 'error'));
