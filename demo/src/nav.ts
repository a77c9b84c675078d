import { applyLanguage, currentLanguage, type Language, type MessageKey } from './i18n.js';

/**
 * The demo's frame, the same on every page: the header with its navigation and language switch,
 * and the footer. The page names itself with `<body data-page="…">`.
 */
const PAGES: { page: string; href: string; label: MessageKey }[] = [
  { page: 'shop', href: '/shop.html', label: 'nav.shop' },
  { page: 'portal', href: '/portal.html', label: 'nav.portal' },
  { page: 'account', href: '/account.html', label: 'nav.account' },
  { page: 'wiring', href: '/how-it-works.html', label: 'nav.wiring' },
];

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: (Node | string)[]) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function renderHeader(): void {
  const header = document.querySelector<HTMLElement>('header[data-demo-bar]');
  if (!header) return;
  const current = document.body.dataset.page;
  const brand = element('a', { class: 'brand', href: '/' }, element('span', { class: 'logo', 'aria-hidden': 'true' }), 'Demo Studio');
  const badge = element('span', { class: 'badge', 'data-i18n': 'nav.demo' }, 'Demo');
  const links = PAGES.map(({ page, href, label }) =>
    element('a', { href, 'data-i18n': label, ...(page === current ? { 'aria-current': 'page' } : {}) }, label),
  );
  // The outbox is the service's own page: it opens beside the demo, which stays where it was.
  const outbox = element('a', { href: '/outbox', 'data-service-link': 'outbox', 'data-i18n': 'nav.outbox', target: '_blank', rel: 'noopener' }, 'Outbox');
  const nav = element('nav', { 'data-i18n-label': 'nav.label' }, ...links, outbox);
  const select = element('select', { id: 'language', 'data-i18n-label': 'nav.language' });
  select.append(new Option('English', 'en'), new Option('Polski', 'pl'));
  select.value = currentLanguage();
  select.addEventListener('change', () => applyLanguage(select.value as Language));
  header.replaceChildren(element('div', { class: 'brand-row' }, brand, badge), nav, select);
  // The first stop of the keyboard: past the header to the page's own content.
  const main = document.querySelector('main');
  if (main) {
    main.id ||= 'content';
    main.tabIndex = -1;
    document.body.prepend(element('a', { class: 'skip-link', href: `#${main.id}`, 'data-i18n': 'nav.skip' }, 'Skip to content'));
  }

  const footer = element('footer', { class: 'demo-footer' }, element('p', { 'data-i18n': 'footer.text' }));
  document.body.append(footer);
}

/**
 * Points the outbox links at a short-lived signed link to the demo account's outbox, made by the
 * demo's backend. With SMTP configured there is no outbox, and its links go away.
 */
async function linkService(): Promise<void> {
  const response = await fetch('/demo-api/config');
  if (!response.ok) return;
  const { outboxUrl } = (await response.json()) as { outboxUrl: string | null };
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-service-link="outbox"]')) {
    if (outboxUrl) link.href = outboxUrl;
    else (link.closest('li.tile') ?? link).remove();
  }
}

/**
 * A link opens the outbox for 15 minutes, and a demo tab stays open far longer: the links get a
 * fresh one whenever the pointer or the keyboard comes to them, before they can be followed.
 */
function keepServiceLinksFresh(): void {
  let asked = Number.NEGATIVE_INFINITY;
  const refresh = () => {
    // One request per approach, not one per pixel of pointer movement.
    if (performance.now() - asked < 5000) return;
    asked = performance.now();
    void linkService();
  };
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-service-link="outbox"]')) {
    link.addEventListener('pointerenter', refresh);
    link.addEventListener('focus', refresh);
  }
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && refresh());
}

renderHeader();
applyLanguage();
void linkService();
keepServiceLinksFresh();
