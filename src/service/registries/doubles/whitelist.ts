import { Hono } from 'hono';
import { isNip } from '../../../kernel/validation/client.js';
import { failing, type FailureSwitch } from './failures.js';

/**
 * A stand-in for the Ministry of Finance's VAT register API (the "white list", wl-api.mf.gov.pl),
 * written from its published reference: `GET /api/search/nip/{nip}?date=YYYY-MM-DD` answers
 * `{"result":{"subject":{…}|null,"requestDateTime":"dd-MM-yyyy HH:mm:ss","requestId":…}}`; a request
 * it refuses gets 400 `{"code":"WL-1xx","message":…}` (a missing or malformed date, a date in the
 * future, a NIP of the wrong length, with other characters than digits, or with a wrong check digit).
 */

export interface WhitelistEntry {
  name: string;
  /** `Czynny`, `Zwolniony`, or `null` for a taxpayer no longer registered. */
  statusVat: string | null;
  workingAddress: string | null;
  residenceAddress?: string | null;
  regon?: string | null;
  krs?: string | null;
  accountNumbers?: string[];
  registrationLegalDate?: string | null;
}

export interface WhitelistDouble extends FailureSwitch {
  app: Hono;
  register(nip: string, entry: WhitelistEntry): void;
  remove(nip: string): void;
  /** The NIPs searched, newest last. */
  readonly searches: string[];
}

/** The register's internal error, as it answers one. */
export const WL_INTERNAL_ERROR = JSON.stringify({ code: 'WL-100', message: 'Wystąpił nieoczekiwany błąd serwera.' });

export function createWhitelistDouble(options: { clock?: () => Date } = {}): WhitelistDouble {
  const clock = options.clock ?? (() => new Date());
  const entries = new Map<string, WhitelistEntry>();
  const searches: string[] = [];
  const failure = failing();
  let counter = 0;
  const app = new Hono();
  const refuse = (code: string, message: string) => new Response(JSON.stringify({ code, message }), { status: 400, headers: { 'content-type': 'application/json' } });

  app.use('*', async (_c, next) => {
    const answer = await failure.answer();
    if (answer) return answer;
    await next();
  });

  app.get('/api/search/nip/:nip', (c) => {
    const nip = c.req.param('nip');
    const date = c.req.query('date');
    const now = clock();
    if (!date) return refuse('WL-101', "Pole 'data' nie może być puste.");
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) return refuse('WL-102', "Pole 'data' ma nieprawidłowy format.");
    if (date > now.toISOString().slice(0, 10)) return refuse('WL-103', "Data nie może być datą przyszłą.");
    if (nip.length !== 10) return refuse('WL-113', `Pole 'NIP' ma nieprawidłową długość. Wymagane 10 znaków (${nip}).`);
    if (!/^\d+$/.test(nip)) return refuse('WL-114', `Pole 'NIP' zawiera niedozwolone znaki. Wymagane tylko cyfry (${nip}).`);
    if (!isNip(nip)) return refuse('WL-115', `Nieprawidłowy NIP (${nip}).`);
    searches.push(nip);
    counter += 1;
    const entry = entries.get(nip);
    const pad = (n: number) => String(n).padStart(2, '0');
    const requestDateTime = `${pad(now.getUTCDate())}-${pad(now.getUTCMonth() + 1)}-${now.getUTCFullYear()} ${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())}`;
    const requestId = `${counter.toString(36).padStart(5, '0')}-${nip.slice(-4)}${counter.toString(16).padStart(3, '0')}`;
    const subject = entry
      ? {
          name: entry.name,
          nip,
          statusVat: entry.statusVat,
          regon: entry.regon ?? null,
          pesel: null,
          krs: entry.krs ?? null,
          residenceAddress: entry.residenceAddress ?? null,
          workingAddress: entry.workingAddress,
          representatives: [],
          authorizedClerks: [],
          partners: [],
          registrationLegalDate: entry.registrationLegalDate ?? null,
          registrationDenialBasis: null,
          registrationDenialDate: null,
          restorationBasis: null,
          restorationDate: null,
          removalBasis: null,
          removalDate: null,
          accountNumbers: entry.accountNumbers ?? [],
          hasVirtualAccounts: false,
        }
      : null;
    return c.json({ result: { subject, requestDateTime, requestId } });
  });
  app.notFound(() => new Response(JSON.stringify({ code: 'WL-190', message: 'Niepoprawne żądanie.' }), { status: 400, headers: { 'content-type': 'application/json' } }));

  return {
    app,
    searches,
    ...failure.switch,
    register(nip, entry) {
      entries.set(nip, entry);
    },
    remove(nip) {
      entries.delete(nip);
    },
  };
}
