import { type Lang, pick } from '../../i18n.js';
import type { SectionNotice } from './section.js';

/** What "Test connection" answers (`POST /account/connection_tests/…`): whether the target took the saved keys, and its words. */
export interface ConnectionAnswer {
  ok: boolean;
  /** `stripe`, `przelewy24`, `test`, or the KSeF environment. */
  target: string;
  /** Whether the target moves no real money (a test key, a sandbox, a KSeF test environment). */
  test_mode: boolean;
  /** What was asked and what came back, in the service's words. */
  message: string;
}

const TARGETS: Record<string, string> = { stripe: 'Stripe', przelewy24: 'Przelewy24', test: 'test payments' };

const strings = {
  en: {
    ok: (target: string, test: boolean) => `Connected to ${target} (${test ? 'test mode' : 'live'}).`,
    failed: (target: string) => `Not connected to ${target}.`,
    ksef: 'KSeF',
  },
  pl: {
    ok: (target: string, test: boolean) => `Połączono z ${target} (${test ? 'tryb testowy' : 'na żywo'}).`,
    failed: (target: string) => `Brak połączenia z ${target}.`,
    ksef: 'KSeF',
  },
} satisfies Record<Lang, unknown>;

/** A test's answer as the section says it: the outcome in the page's language, then the service's own words. */
export function connectionNotice(answer: ConnectionAnswer, lang: Lang): SectionNotice {
  const t = pick(strings, lang);
  const target = TARGETS[answer.target] ?? t.ksef;
  const lead = answer.ok ? t.ok(target, answer.test_mode) : t.failed(target);
  return { tone: answer.ok ? 'ok' : 'error', text: `${lead} ${answer.message}`.trim() };
}
