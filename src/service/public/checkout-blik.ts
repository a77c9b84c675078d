import type { BlikFailureReason } from '../../contract/sale.js';
import type { StoredBlik } from '../application/blik.js';
import { html, type Html } from '../documents/html.js';
import { TEST_BLIK_CODES } from '../payments/test-blik.js';
import type { Lang } from './pages.js';

/**
 * BLIK on the service's pages (the checkout page, the order page without JavaScript): the code
 * field beside the other ways to pay, the wait for the bank app with the time left, and why a code
 * failed. The page reloads itself while it waits; nothing here needs a script.
 */
export const BLIK_TEXT = {
  en: {
    code: 'BLIK code',
    hint: 'The six digits from your bank app',
    pay: 'Pay with BLIK',
    or: 'Or pay another way',
    malformed: 'Type the six digits from your bank app.',
    waiting: 'Confirm the payment in your bank app.',
    timeLeft: (left: string) => `Time left: ${left}. This page updates by itself.`,
    checkAgain: 'Check again',
    testCodes: `Test codes: ${TEST_BLIK_CODES.approved} is approved, ${TEST_BLIK_CODES.wrongCode} is a wrong code, ${TEST_BLIK_CODES.expiredCode} an expired one, ${TEST_BLIK_CODES.declined} is declined in the bank app and ${TEST_BLIK_CODES.unanswered} never answered.`,
    reasons: {
      wrong_code: 'The BLIK code was wrong. Check it in your bank app and try again with a new code.',
      expired_code: 'The BLIK code had expired. Generate a new code in your bank app and try again.',
      declined: 'The payment was declined in the bank app. Nothing was charged.',
      timeout: 'The bank app did not confirm the payment in time. Nothing was charged.',
      provider_error: 'The payment provider could not take the code just now. Nothing was charged; please try again.',
    } satisfies Record<BlikFailureReason, string>,
  },
  pl: {
    code: 'Kod BLIK',
    hint: 'Sześć cyfr z aplikacji banku',
    pay: 'Zapłać BLIKIEM',
    or: 'Albo zapłać inaczej',
    malformed: 'Wpisz sześć cyfr z aplikacji banku.',
    waiting: 'Potwierdź płatność w aplikacji banku.',
    timeLeft: (left: string) => `Pozostały czas: ${left}. Ta strona odświeży się sama.`,
    checkAgain: 'Sprawdź ponownie',
    testCodes: `Kody testowe: ${TEST_BLIK_CODES.approved} zostaje zatwierdzony, ${TEST_BLIK_CODES.wrongCode} to błędny kod, ${TEST_BLIK_CODES.expiredCode} wygasły, ${TEST_BLIK_CODES.declined} zostaje odrzucony w aplikacji banku, a ${TEST_BLIK_CODES.unanswered} pozostaje bez odpowiedzi.`,
    reasons: {
      wrong_code: 'Kod BLIK był nieprawidłowy. Sprawdź go w aplikacji banku i spróbuj ponownie z nowym kodem.',
      expired_code: 'Kod BLIK wygasł. Wygeneruj nowy kod w aplikacji banku i spróbuj ponownie.',
      declined: 'Płatność została odrzucona w aplikacji banku. Nic nie pobrano.',
      timeout: 'Aplikacja banku nie potwierdziła płatności na czas. Nic nie pobrano.',
      provider_error: 'Operator płatności nie mógł teraz przyjąć kodu. Nic nie pobrano; spróbuj ponownie.',
    } satisfies Record<BlikFailureReason, string>,
  },
} as const;

/** Which BLIK attempt a form follows: none yet, or the last one, by when its code expires. */
export const blikFormState = (blik: StoredBlik | null | undefined): string => blik?.expires_at ?? 'none';

/** Seconds as `m:ss`. */
export function minutesAndSeconds(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The code field: six digits, the numeric keypad on phones, the browser's one-time-code autofill.
 * `name` is the form field (`code` on the checkout page, `blik_code` on the order page).
 */
export function blikCodeField(lang: Lang, options: { name: string; problem?: string | undefined; testCodes?: boolean }): Html {
  const t = BLIK_TEXT[lang];
  return html`<p class="blik-field"><label>${t.code}<br>
      <input name="${options.name}" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" size="8"
        aria-describedby="blik-hint" style="font:inherit;font-size:1.25rem;letter-spacing:0.2em;padding:0.4rem 0.6rem"${options.problem ? html` aria-invalid="true"` : ''}></label>
      <br><span id="blik-hint" class="muted">${t.hint}</span>
      ${options.problem ? html`<br><span role="alert" class="muted">${options.problem}</span>` : ''}
      ${options.testCodes ? html`<br><span class="muted blik-test-codes">${t.testCodes}</span>` : ''}</p>`;
}

/**
 * The checkout page's BLIK form: the code and its own Pay button, posted as `choice=blik`. `state`
 * names the attempt the form was shown after (`blikFormState`): a form posted again once another code
 * went sends nothing.
 */
export function blikForm(lang: Lang, options: { problem?: string | undefined; testCodes: boolean; state: string }): Html {
  const t = BLIK_TEXT[lang];
  return html`<form method="post" class="blik" aria-label="BLIK">
      <input type="hidden" name="after" value="${options.state}">
      ${blikCodeField(lang, { name: 'code', problem: options.problem, testCodes: options.testCodes })}
      <div class="actions"><button class="button primary" type="submit" name="choice" value="blik">${t.pay}</button></div>
    </form>
    <p class="muted">${t.or}</p>`;
}

/** The wait for the bank app, with the time the code has left; the page reloads itself meanwhile. */
export function blikWaiting(lang: Lang, blik: StoredBlik, now: Date, token: string): Html {
  const t = BLIK_TEXT[lang];
  const left = minutesAndSeconds(Date.parse(blik.expires_at) - now.getTime());
  return html`<div class="notice" role="status" aria-live="polite"><strong>${t.waiting}</strong><br>
      <span class="blik-time-left">${t.timeLeft(left)}</span></div>
    <div class="actions"><a class="button" href="/banking/payments/pay/${token}">${t.checkAgain}</a></div>`;
}

/** Why the code failed, said before the ways to pay are offered again. */
export function blikFailure(lang: Lang, reason: BlikFailureReason | null): Html {
  return html`<p class="notice problem" role="alert">${BLIK_TEXT[lang].reasons[reason ?? 'declined']}</p>`;
}
