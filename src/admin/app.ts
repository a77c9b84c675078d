import { css, html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { createAdminApi, type AdminApi } from './api.js';
import type { AdminNavigateEvent } from './events.js';
import { pick, toLang, type Lang } from './i18n.js';
import { readSession, signOut, type AdminSession } from './session.js';
import { viewStyles } from './styles.js';
import { matchRoute, routes, type AdminRoute } from './views/index.js';
import type { AdminSignedInEvent } from './views/sign-in.js';

const strings = {
  en: {
    product: 'invoicekit',
    backOffice: 'Back office',
    skip: 'Skip to content',
    menu: 'Main',
    nav: { overview: 'Overview', products: 'Products', invoices: 'Invoices', customers: 'Customers', settings: 'Settings' },
    signOut: 'Sign out',
    language: 'Language',
    loading: 'Loading…',
    notFound: 'Page not found',
    notFoundText: 'There is nothing at this address.',
    toOverview: 'Go to the overview',
    failed: 'The back office could not reach the service. Reload the page to try again.',
  },
  pl: {
    product: 'invoicekit',
    backOffice: 'Panel sprzedawcy',
    skip: 'Przejdź do treści',
    menu: 'Główne',
    nav: { overview: 'Przegląd', products: 'Produkty', invoices: 'Faktury', customers: 'Klienci', settings: 'Ustawienia' },
    signOut: 'Wyloguj',
    language: 'Język',
    loading: 'Wczytywanie…',
    notFound: 'Nie ma takiej strony',
    notFoundText: 'Pod tym adresem nic nie ma.',
    toOverview: 'Przejdź do przeglądu',
    failed: 'Panel nie może połączyć się z usługą. Odśwież stronę, aby spróbować ponownie.',
  },
};

type NavKey = NonNullable<AdminRoute['nav']>;
const NAV_ORDER: readonly NavKey[] = ['overview', 'products', 'invoices', 'customers', 'settings'];
const NAV_PATHS: Record<NavKey, string> = { overview: '/admin/', products: '/admin/products', invoices: '/admin/invoices', customers: '/admin/customers', settings: '/admin/settings' };
const LANG_KEY = 'invoicekit-admin-lang';

/** What the shell sets on every view it opens. */
type ViewElement = HTMLElement & { api: AdminApi; lang: Lang; params: Record<string, string>; updateComplete?: Promise<unknown> };

function storedLang(): Lang | undefined {
  try {
    const value = localStorage.getItem(LANG_KEY);
    return value === 'en' || value === 'pl' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The back office: asks the server who is signed in, then shows the sign-in form or the navigation
 * and the view of the address (`/admin/products/12`), moving with `history.pushState`. Each move
 * puts the focus on the new view's heading, so keyboard and screen-reader users land on it.
 *
 * @summary The back office's shell: session, navigation, language and routing.
 */
export class AdminApp extends LitElement {
  static override styles = [
    viewStyles,
    css`
      :host {
        display: block;
        min-height: 100vh;
        background: var(--admin-page, #f6f7f9);
      }
      .skip {
        position: absolute;
        inset-inline-start: 0.5rem;
        top: -4rem;
        z-index: 1;
      }
      .skip:focus {
        top: 0.5rem;
      }
      header {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.5rem 1rem;
        padding: 0.5rem 1rem;
        background: #fff;
        border-bottom: 1px solid var(--admin-border, #d0d5dc);
      }
      .brand {
        font-weight: 700;
        margin-inline-end: auto;
      }
      .brand span {
        font-weight: normal;
        color: var(--admin-muted, #4d5766);
      }
      nav ul {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem;
        list-style: none;
        margin: 0;
        padding: 0;
      }
      nav a {
        display: inline-block;
        padding: 0.5rem 0.75rem;
        border-radius: 0.375rem;
        color: inherit;
        text-decoration: none;
      }
      nav a[aria-current='page'] {
        background: var(--admin-accent, #0b57d0);
        color: #fff;
      }
      .tools {
        display: flex;
        gap: 0.5rem;
        align-items: center;
      }
      .tools label {
        font-weight: normal;
      }
      .tools select {
        width: auto;
      }
      main {
        box-sizing: border-box;
        max-width: 72rem;
        margin: 0 auto;
        padding: 1.25rem 1rem 3rem;
      }
      main.narrow {
        max-width: 28rem;
      }
    `,
  ];
  static override properties: PropertyDeclarations = {
    session: { state: true },
    language: { state: true },
    path: { state: true },
    view: { state: true },
    failure: { state: true },
  };

  /** undefined while the server is asked; null when nobody is signed in. */
  private session: AdminSession | null | undefined = undefined;
  private language: Lang = storedLang() ?? toLang(document.documentElement.lang);
  private path = location.pathname;
  private view: { route: AdminRoute | undefined; element: ViewElement | undefined } | undefined;
  private failure = false;
  /** The latest route load: a slower earlier one never replaces it. */
  #opening = 0;
  /** Whether the next view takes the focus (any move but the first page load). */
  #moved = false;
  readonly #api = createAdminApi({
    csrf: () => this.session?.csrf ?? '',
    onSignedOut: () => {
      this.session = null;
    },
  });

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('popstate', this.#onPopState);
    this.addEventListener('ik-navigate', this.#onNavigate);
    this.addEventListener('ik-signed-in', this.#onSignedIn);
    document.documentElement.lang = this.language;
    void this.#loadSession();
  }

  override disconnectedCallback(): void {
    window.removeEventListener('popstate', this.#onPopState);
    this.removeEventListener('ik-navigate', this.#onNavigate);
    this.removeEventListener('ik-signed-in', this.#onSignedIn);
    super.disconnectedCallback();
  }

  /** Opens `path` (under `/admin/`) as if a link to it was followed. */
  navigate(path: string): void {
    if (path !== location.pathname + location.search) history.pushState(null, '', path);
    this.#moved = true;
    this.path = new URL(path, location.href).pathname;
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('language')) {
      document.documentElement.lang = this.language;
      if (this.view?.element) this.view.element.lang = this.language;
    }
    if (changed.has('language') || changed.has('view') || changed.has('session')) document.title = this.#title();
    if ((changed.has('path') || changed.has('session')) && this.session) void this.#open(this.path);
    if (changed.has('session') && this.session === null) this.view = undefined;
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has('session') && this.session === null && this.#moved) void this.#focusHeading(this.renderRoot.querySelector('ik-admin-sign-in'));
  }

  override render() {
    const t = pick(strings, this.language);
    const current = this.view?.route?.nav;
    const navigation = NAV_ORDER.filter((key) => routes.some((route) => route.nav === key));
    return html`
      <header>
        <button type="button" class="skip" @click=${this.#skip}>${t.skip}</button>
        <div class="brand">${t.product} <span>${this.session?.account.name ?? t.backOffice}</span></div>
        ${this.session
          ? html`<nav aria-label=${t.menu}>
              <ul>
                ${navigation.map((key) => html`<li><a href=${NAV_PATHS[key]} aria-current=${key === current ? 'page' : nothing} @click=${this.#follow}>${t.nav[key]}</a></li>`)}
              </ul>
            </nav>`
          : nothing}
        <div class="tools">
          <label for="language">${t.language}</label>
            <select id="language" @change=${this.#chooseLanguage}>
              <option value="en" lang="en" ?selected=${this.language === 'en'}>English</option>
              <option value="pl" lang="pl" ?selected=${this.language === 'pl'}>Polski</option>
            </select>
          ${this.session ? html`<button type="button" @click=${this.#signOut}>${t.signOut}</button>` : nothing}
        </div>
      </header>
      <main id="main" tabindex="-1" class=${this.session ? '' : 'narrow'}>${this.#main()}</main>
    `;
  }

  #main() {
    const t = pick(strings, this.language);
    if (this.failure) return html`<p class="error" role="alert">${t.failed}</p>`;
    if (this.session === undefined) return html`<p class="muted" role="status">${t.loading}</p>`;
    if (this.session === null) return html`<ik-admin-sign-in .lang=${this.language}></ik-admin-sign-in>`;
    if (!this.view) return html`<p class="muted" role="status">${t.loading}</p>`;
    if (!this.view.element) {
      return html`<h1 tabindex="-1">${t.notFound}</h1>
        <p>${t.notFoundText}</p>
        <p><a href="/admin/" @click=${this.#follow}>${t.toOverview}</a></p>`;
    }
    return this.view.element;
  }

  async #loadSession(): Promise<void> {
    try {
      this.session = await readSession();
    } catch {
      this.failure = true;
    }
  }

  /** The page's title: the section, then the back office (`Products · Back office · invoicekit`). */
  #title(): string {
    const t = pick(strings, this.language);
    const section = !this.session ? undefined : this.view && !this.view.element ? t.notFound : this.view?.route?.nav && t.nav[this.view.route.nav];
    return [section, t.backOffice, t.product].filter(Boolean).join(' · ');
  }

  async #open(path: string): Promise<void> {
    const opening = ++this.#opening;
    const found = matchRoute(path);
    let element: ViewElement | undefined;
    if (found) {
      await found.route.load();
      if (opening !== this.#opening) return;
      element = document.createElement(found.route.tag) as ViewElement;
      element.api = this.#api;
      element.lang = this.language;
      element.params = found.params;
    }
    this.view = { route: found?.route, element };
    await this.updateComplete;
    if (!this.#moved || opening !== this.#opening) return;
    await this.#focusHeading(element ?? null);
  }

  /** Puts the focus on the heading of `view` (or, with no view, of the shell's own content). */
  async #focusHeading(view: Element | null): Promise<void> {
    if (view && 'updateComplete' in view) await (view as ViewElement).updateComplete;
    const root = view ? (view.shadowRoot ?? view) : this.renderRoot;
    const heading = root.querySelector('h1');
    if (heading) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus();
    }
  }

  #follow = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.currentTarget as HTMLAnchorElement;
    event.preventDefault();
    this.navigate(link.pathname + link.search);
  };

  #skip = (event: Event) => {
    event.preventDefault();
    void this.#focusHeading(this.view?.element ?? this.renderRoot.querySelector('ik-admin-sign-in'));
  };

  #onNavigate = (event: AdminNavigateEvent) => {
    event.stopPropagation();
    this.navigate(event.detail.path);
  };

  #onPopState = () => {
    this.#moved = true;
    this.path = location.pathname;
  };

  #onSignedIn = (event: AdminSignedInEvent) => {
    this.#moved = true;
    this.session = event.detail.session;
  };

  #chooseLanguage = (event: Event) => {
    const lang = toLang((event.currentTarget as HTMLSelectElement).value);
    try {
      localStorage.setItem(LANG_KEY, lang);
    } catch {
      // A browser that keeps no storage keeps the choice for this page only.
    }
    this.language = lang;
  };

  #signOut = async () => {
    const csrf = this.session?.csrf ?? '';
    try {
      await signOut(csrf);
    } finally {
      this.#moved = true;
      this.session = null;
      if (location.pathname !== '/admin/') history.pushState(null, '', '/admin/');
      this.path = '/admin/';
    }
  };
}
