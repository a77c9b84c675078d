import { applyLanguage, currentLanguage, type Language } from './i18n.js';

/**
 * The demo's frame, the same on every page: the header with its navigation and language switch, the
 * skip link and the footer. The build prints it into every page (scripts/build-demo.mjs), so the page
 * is painted whole and nothing moves when this script runs; here the language switch comes alive.
 */
function wireHeader(): void {
  const select = document.querySelector<HTMLSelectElement>('select#language');
  if (!select) return;
  select.value = currentLanguage();
  select.addEventListener('change', () => applyLanguage(select.value as Language));
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

wireHeader();
applyLanguage();
void linkService();
keepServiceLinksFresh();
