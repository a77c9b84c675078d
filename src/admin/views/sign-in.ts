import { html, LitElement, type PropertyDeclarations } from 'lit';
import { AdminApiError } from '../api.js';
import { pick, type Lang } from '../i18n.js';
import { signIn, type AdminSession } from '../session.js';
import { viewStyles } from '../styles.js';

const strings = {
  en: {
    title: 'Sign in',
    intro: 'Sign in to your shop’s back office with your login or e-mail.',
    login: 'Login or e-mail',
    password: 'Password',
    submit: 'Sign in',
    busy: 'Signing in…',
    wrong: 'Wrong login or password.',
    blank: 'Enter your login and password.',
    limited: 'Too many attempts. Wait a moment and try again.',
    failed: 'Signing in failed. Try again.',
  },
  pl: {
    title: 'Zaloguj się',
    intro: 'Zaloguj się do panelu sklepu loginem lub adresem e-mail.',
    login: 'Login lub e-mail',
    password: 'Hasło',
    submit: 'Zaloguj się',
    busy: 'Logowanie…',
    wrong: 'Nieprawidłowy login lub hasło.',
    blank: 'Podaj login i hasło.',
    limited: 'Zbyt wiele prób. Odczekaj chwilę i spróbuj ponownie.',
    failed: 'Logowanie nie powiodło się. Spróbuj ponownie.',
  },
} satisfies Record<Lang, Record<string, string>>;

/** The session a sign-in started. */
export class AdminSignedInEvent extends Event {
  readonly detail: { readonly session: AdminSession };

  constructor(session: AdminSession) {
    super('ik-signed-in', { bubbles: true, composed: true });
    this.detail = { session };
  }
}

/** The sign-in form: login or e-mail and password; a wrong one is said beside the form, in the page's language. */
export class AdminSignIn extends LitElement {
  static override styles = viewStyles;
  static override properties: PropertyDeclarations = {
    lang: {},
    busy: { state: true },
    problem: { state: true },
  };

  override lang: Lang = 'en';
  private busy = false;
  private problem: keyof typeof strings.en | '' = '';

  override render() {
    const t = pick(strings, this.lang);
    return html`
      <h1 tabindex="-1">${t.title}</h1>
      <p class="muted">${t.intro}</p>
      <form @submit=${this.submit} novalidate>
        <label>${t.login}<input name="login" autocomplete="username" required aria-invalid=${this.problem === 'wrong' || this.problem === 'blank' ? 'true' : 'false'} aria-describedby="problem" /></label>
        <label>${t.password}<input name="password" type="password" autocomplete="current-password" required aria-invalid=${this.problem === 'wrong' || this.problem === 'blank' ? 'true' : 'false'} aria-describedby="problem" /></label>
        <p id="problem" class="error status" role="alert">${this.problem ? t[this.problem] : ''}</p>
        <div class="actions"><button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? t.busy : t.submit}</button></div>
      </form>
    `;
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const login = String(data.get('login') ?? '').trim();
    const password = String(data.get('password') ?? '');
    if (!login || !password) {
      this.problem = 'blank';
      return;
    }
    this.busy = true;
    this.problem = '';
    try {
      const session = await signIn(login, password);
      this.dispatchEvent(new AdminSignedInEvent(session));
    } catch (error) {
      this.problem = error instanceof AdminApiError ? (error.status === 401 || error.status === 422 ? 'wrong' : error.status === 429 ? 'limited' : 'failed') : 'failed';
      const field = form.elements.namedItem('password');
      if (field instanceof HTMLInputElement) {
        field.value = '';
        field.focus();
      }
    } finally {
      this.busy = false;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-sign-in': AdminSignIn;
  }
  interface GlobalEventHandlersEventMap {
    'ik-signed-in': AdminSignedInEvent;
  }
}
