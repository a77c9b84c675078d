import { type Lang, pick } from '../../i18n.js';
import type { SectionNotice } from './section.js';

/** What a "Test connection" answers: whether the provider (or KSeF) took the saved credentials, and its words. */
export interface ConnectionAnswer {
  ok: boolean;
  message?: string | null;
}

const strings = {
  en: { ok: 'Connected:', failed: 'Not connected:', okBare: 'Connected.', failedBare: 'Not connected.' },
  pl: { ok: 'Połączono:', failed: 'Brak połączenia:', okBare: 'Połączono.', failedBare: 'Brak połączenia.' },
} satisfies Record<Lang, Record<string, string>>;

/** A test's answer as the section says it. */
export function connectionNotice(answer: ConnectionAnswer, lang: Lang): SectionNotice {
  const t = pick(strings, lang);
  const message = answer.message?.trim();
  if (answer.ok) return { tone: 'ok', text: message ? `${t.ok} ${message}` : t.okBare };
  return { tone: 'error', text: message ? `${t.failed} ${message}` : t.failedBare };
}
