import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { addDays } from './calendar.js';
import { createNbpDouble, type NbpDouble } from './nbp.js';
import { createViesDouble, type ViesDouble } from './vies.js';
import { createWhitelistDouble, type WhitelistDouble } from './whitelist.js';

export { demoMid, NBP_CURRENCIES } from './nbp.js';
export { viesErrorBody } from './vies.js';
export { WL_INTERNAL_ERROR } from './whitelist.js';
export type { Failure } from './failures.js';
export type { NbpDouble, ViesDouble, WhitelistDouble };

/**
 * Stand-ins for the three registers the service and the BFF consult, each a real HTTP server on
 * loopback with an ephemeral port: NBP's exchange rates, VIES and the VAT white list. Tests steer
 * them; the demo runs them seeded with the companies and rates below.
 */
export interface RegistryDoubles {
  /** For `INVOICEKIT_NBP_API_URL` (`nbpApiUrl`). */
  nbpApiUrl: string;
  /** For `INVOICEKIT_VIES_API_URL` (`viesApiUrl`). */
  viesApiUrl: string;
  /** For `INVOICEKIT_MF_WHITELIST_URL` (`mfWhitelistUrl`). */
  mfWhitelistUrl: string;
  nbp: NbpDouble;
  vies: ViesDouble;
  whitelist: WhitelistDouble;
  close(): Promise<void>;
}

/** The demo's EU companies, by VAT prefix and number (each passes its country's check digits). */
export const DEMO_EU_COMPANIES: readonly { countryCode: string; vatNumber: string; name: string; address: string }[] = [
  { countryCode: 'DE', vatNumber: '812345673', name: 'Nordlicht Software GmbH', address: 'Speicherstraße 12\n20457 Hamburg' },
  { countryCode: 'FR', vatNumber: '19812345676', name: 'ATELIER LUMIERE SARL', address: '12 RUE DE LA PAIX\n75002 PARIS' },
  { countryCode: 'IT', vatNumber: '12345670157', name: 'STUDIO VERDE S.R.L.', address: 'VIA ROMA 10 \n20121 MILANO MI\n' },
  { countryCode: 'NL', vatNumber: '812345678B01', name: 'Tulp Digital B.V.', address: 'KEIZERSGRACHT 00100\n1015CV AMSTERDAM\n' },
  { countryCode: 'AT', vatNumber: 'U12345675', name: 'Alpen Design GmbH', address: 'Mariahilfer Straße 1\nAT-1060 Wien' },
  { countryCode: 'CZ', vatNumber: '28123450', name: 'VLTAVA DATA s.r.o.', address: 'Václavské náměstí 1\nNOVÉ MĚSTO\n110 00 PRAHA 1' },
  { countryCode: 'IE', vatNumber: '6388047V', name: 'SHAMROCK APPS LIMITED', address: '1 GRAND CANAL SQUARE, DUBLIN 2, D02 X285' },
  { countryCode: 'BE', vatNumber: '0412345614', name: 'Atomium Conseil SRL', address: 'Rue de la Loi 16\n1000 Bruxelles' },
  { countryCode: 'ES', vatNumber: 'B81234569', name: 'Sol Naciente SL', address: 'Calle Mayor 1\n28013 Madrid' },
];

/** The demo's Polish taxpayers on the white list, by NIP. */
export const DEMO_PL_COMPANIES: readonly { nip: string; name: string; statusVat: string | null; workingAddress: string; regon: string }[] = [
  { nip: '5252248481', name: 'DEMO STUDIO SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ', statusVat: 'Czynny', workingAddress: 'UL. PROSTA 51, 00-838 WARSZAWA', regon: '140000001' },
  { nip: '6771234561', name: 'KWADRAT SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ', statusVat: 'Czynny', workingAddress: 'UL. FLORIAŃSKA 3/5, 31-019 KRAKÓW', regon: '120000002' },
  { nip: '8981234568', name: 'PIEKARNIA ZŁOTY KŁOS JAN NOWAK', statusVat: 'Zwolniony', workingAddress: 'RYNEK 5, 50-106 WROCŁAW', regon: '020000003' },
  { nip: '5861234564', name: 'BAŁTYK LOGISTYKA SPÓŁKA AKCYJNA', statusVat: 'Czynny', workingAddress: 'UL. PORTOWA 12 LOK. 4, 81-350 GDYNIA', regon: '190000004' },
  { nip: '9512345675', name: 'ZAMKNIĘTA FIRMA SPÓŁKA JAWNA', statusVat: null, workingAddress: 'UL. DŁUGA 1, 00-238 WARSZAWA', regon: '140000005' },
];

/** Days of NBP tables the demo publishes, back from today: beyond the seeded year of invoices. */
const DEMO_RATE_DAYS = 400;

async function listen(app: Hono, host: string): Promise<{ server: ServerType; origin: string }> {
  const server = await new Promise<ServerType>((resolve, reject) => {
    const started: ServerType = serve({ fetch: app.fetch, port: 0, hostname: host }, () => resolve(started));
    started.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}` };
}

/**
 * Starts the three stand-ins. `seed` (default true) loads the demo companies and the NBP tables of
 * the last 120 days by `clock` (default the real one).
 */
export async function startRegistryDoubles(options: { seed?: boolean; clock?: () => Date; host?: string } = {}): Promise<RegistryDoubles> {
  const clock = options.clock ?? (() => new Date());
  const host = options.host ?? '127.0.0.1';
  const nbp = createNbpDouble();
  const vies = createViesDouble({ clock });
  const whitelist = createWhitelistDouble({ clock });
  if (options.seed ?? true) {
    const today = clock().toISOString().slice(0, 10);
    nbp.seed(addDays(today, -DEMO_RATE_DAYS), today);
    for (const company of DEMO_EU_COMPANIES) vies.register(company.countryCode, company.vatNumber, company);
    for (const company of DEMO_PL_COMPANIES) whitelist.register(company.nip, { ...company, accountNumbers: [] });
  }
  const servers: ServerType[] = [];
  try {
    const nbpServer = await listen(nbp.app, host);
    servers.push(nbpServer.server);
    // VIES lives under the Commission's path, as its reference gives it.
    const viesServer = await listen(viesMounted(vies.app), host);
    servers.push(viesServer.server);
    const whitelistServer = await listen(whitelist.app, host);
    servers.push(whitelistServer.server);
    let closing: Promise<void> | undefined;
    return {
      nbpApiUrl: nbpServer.origin,
      viesApiUrl: `${viesServer.origin}${VIES_PATH}`,
      mfWhitelistUrl: whitelistServer.origin,
      nbp,
      vies,
      whitelist,
      close: () => (closing ??= closeAll(servers, [nbp, vies, whitelist])),
    };
  } catch (error) {
    await closeAll(servers, [nbp, vies, whitelist]);
    throw error;
  }
}

const VIES_PATH = '/taxation_customs/vies/rest-api';

const viesMounted = (app: Hono): Hono => new Hono().route(VIES_PATH, app);

async function closeAll(servers: ServerType[], doubles: { recover(): void }[]): Promise<void> {
  // Held requests go first, or a server would wait for them.
  for (const double of doubles) double.recover();
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        }),
    ),
  );
}
