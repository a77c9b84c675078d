import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../src/server-kit/outbound.js';
import {
  createRegistries,
  normalTaxNumber,
  type Registries,
  RegistryInputError,
  RegistryUnavailableError,
  splitAddress,
} from '../../src/server-kit/registries/index.js';
import { type RegistryDoubles, startRegistryDoubles, viesErrorBody, WL_INTERNAL_ERROR } from '../../src/service/registries/doubles/index.js';

/** Saturday 28 November 2026, noon. */
const NOW = new Date('2026-11-28T12:00:00.000Z');
let doubles: RegistryDoubles;
let registries: Registries;

beforeAll(async () => {
  doubles = await startRegistryDoubles({ clock: () => NOW });
  registries = createRegistries({
    nbpApiUrl: doubles.nbpApiUrl,
    viesApiUrl: doubles.viesApiUrl,
    mfWhitelistUrl: doubles.mfWhitelistUrl,
    outbound: createOutboundClient({ timeoutMs: 300, maxAttempts: 1 }),
    viesRequester: { countryCode: 'PL', vatNumber: '5252248481' },
    clock: () => NOW,
  });
});

afterAll(() => doubles.close());

beforeEach(() => {
  doubles.nbp.recover();
  doubles.vies.recover();
  doubles.whitelist.recover();
});

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the call succeeded');
}

describe('NBP table A', () => {
  it('takes the table of the last working day before the tax point, its mid as NBP wrote it', async () => {
    doubles.nbp.setRate('EUR', '2026-11-19', '4.2498');
    doubles.nbp.setRate('EUR', '2026-11-20', '4.2510');
    // Monday's tax point: Friday's table.
    expect(await registries.nbp.rateBefore('EUR', '2026-11-23')).toEqual({ currency: 'EUR', mid: '4.2510', tableNo: '226/A/NBP/2026', effectiveDate: '2026-11-20' });
    // Friday's tax point: Thursday's table, never the day's own.
    expect(await registries.nbp.rateBefore('eur', '2026-11-20')).toEqual({ currency: 'EUR', mid: '4.2498', tableNo: '225/A/NBP/2026', effectiveDate: '2026-11-19' });
  });

  it('skips days without a table: a holiday, and a day NBP published none', async () => {
    doubles.nbp.setRate('USD', '2026-11-10', '3.6712');
    doubles.nbp.setRate('USD', '2026-11-09', '3.6655');
    // 11 November is Independence Day: the day before the 12th has no table.
    expect(await registries.nbp.rateBefore('USD', '2026-11-12')).toEqual({ currency: 'USD', mid: '3.6712', tableNo: '219/A/NBP/2026', effectiveDate: '2026-11-10' });
    doubles.nbp.dropTable('2026-11-10');
    expect(await registries.nbp.rateBefore('USD', '2026-11-12')).toEqual({ currency: 'USD', mid: '3.6655', tableNo: '218/A/NBP/2026', effectiveDate: '2026-11-09' });
  });

  it('keeps six places of the yen and answers null for a currency table A does not carry', async () => {
    doubles.nbp.setRate('JPY', '2026-11-27', '0.024610');
    expect((await registries.nbp.rateBefore('JPY', '2026-11-28'))?.mid).toBe('0.024610');
    expect(await registries.nbp.rateBefore('XAU', '2026-11-28')).toBeNull();
    expect(doubles.nbp.requests.at(-1)).toBe('GET /api/exchangerates/rates/a/xau/2026-11-14/2026-11-27/?format=json');
  });

  it('says NBP is unavailable when it fails, stalls or answers garbage', async () => {
    doubles.nbp.fail({ kind: 'answer', status: 503, body: 'Service Unavailable', contentType: 'text/html' });
    let error = await rejectionOf(registries.nbp.rateBefore('EUR', '2026-11-23'));
    expect(error).toBeInstanceOf(RegistryUnavailableError);
    expect((error as RegistryUnavailableError).reason).toBe('HTTP 503');

    doubles.nbp.fail({ kind: 'answer', status: 200, body: '{"table":"A","rates":[{"no":1}]}' });
    error = await rejectionOf(registries.nbp.rateBefore('EUR', '2026-11-23'));
    expect((error as RegistryUnavailableError).reason).toBe('unexpected answer');

    doubles.nbp.fail({ kind: 'stall' });
    error = await rejectionOf(registries.nbp.rateBefore('EUR', '2026-11-23'));
    expect([(error as RegistryUnavailableError).registry, (error as RegistryUnavailableError).reason]).toEqual(['nbp', 'timeout']);
  });
});

describe('VIES', () => {
  it('confirms a registered number with the consultation number, date, name and address', async () => {
    const consultation = await registries.vies.check({ countryCode: 'FR', vatNumber: '19812345676' });
    expect(consultation).toEqual({
      countryCode: 'FR',
      vatNumber: '19812345676',
      status: 'valid',
      requestIdentifier: expect.stringMatching(/^WAPIAAAA[0-9A-Z]{8}$/),
      requestDate: '2026-11-28T12:00:00.000Z',
      name: 'ATELIER LUMIERE SARL',
      address: '12 RUE DE LA PAIX\n75002 PARIS',
      reason: null,
    });
    expect(doubles.vies.consultations.at(-1)).toEqual({ countryCode: 'FR', vatNumber: '19812345676', requester: 'PL5252248481', requestIdentifier: consultation.requestIdentifier });
  });

  it('says invalid for an unregistered number and for input VIES refuses', async () => {
    const unknown = await registries.vies.check({ countryCode: 'DE', vatNumber: '129273398' });
    expect([unknown.status, unknown.reason, unknown.name]).toEqual(['invalid', 'INVALID', null]);
    const refused = await registries.vies.check({ countryCode: 'US', vatNumber: '123456789' });
    expect([refused.status, refused.reason, refused.requestIdentifier]).toEqual(['invalid', 'INVALID_INPUT', null]);
  });

  it('says unavailable, with VIES\'s reason, when a member state or VIES itself cannot answer', async () => {
    doubles.vies.makeUnavailable('IT');
    expect(await registries.vies.check({ countryCode: 'IT', vatNumber: '12345670157' })).toMatchObject({ status: 'unavailable', reason: 'MS_UNAVAILABLE' });
    doubles.vies.makeUnavailable('IT', 'MS_MAX_CONCURRENT_REQ');
    expect(await registries.vies.check({ countryCode: 'IT', vatNumber: '12345670157' })).toMatchObject({ status: 'unavailable', reason: 'MS_MAX_CONCURRENT_REQ' });
    doubles.vies.restore('IT');
    doubles.vies.fail({ kind: 'answer', status: 500, body: viesErrorBody('SERVICE_UNAVAILABLE') });
    expect(await registries.vies.check({ countryCode: 'IT', vatNumber: '12345670157' })).toMatchObject({ status: 'unavailable', reason: 'SERVICE_UNAVAILABLE' });
    doubles.vies.fail({ kind: 'stall' });
    expect(await registries.vies.check({ countryCode: 'IT', vatNumber: '12345670157' })).toMatchObject({ status: 'unavailable', reason: 'timeout' });
  });
});

describe('the VAT white list', () => {
  it('finds a taxpayer, and answers no subject for a NIP it does not list', async () => {
    const found = await registries.whitelist.searchNip('6771234561', '2026-11-28');
    expect(found.subject).toEqual({
      name: 'KWADRAT SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      nip: '6771234561',
      statusVat: 'Czynny',
      regon: '120000002',
      krs: null,
      workingAddress: 'UL. FLORIAŃSKA 3/5, 31-019 KRAKÓW',
      residenceAddress: null,
      accountNumbers: [],
    });
    expect(found.requestDateTime).toBe('28-11-2026 12:00:00');
    expect((await registries.whitelist.searchNip('5260250274', '2026-11-28')).subject).toBeNull();
  });

  it("passes on the register's refusal of a malformed NIP, and its own failure as unavailability", async () => {
    const refused = await rejectionOf(registries.whitelist.searchNip('5260250275', '2026-11-28'));
    expect(refused).toBeInstanceOf(RegistryInputError);
    expect([(refused as RegistryInputError).code, (refused as RegistryInputError).message]).toEqual(['WL-115', 'Nieprawidłowy NIP (5260250275).']);
    doubles.whitelist.fail({ kind: 'answer', status: 500, body: WL_INTERNAL_ERROR });
    const down = await rejectionOf(registries.whitelist.searchNip('6771234561', '2026-11-28'));
    expect([(down as RegistryUnavailableError).registry, (down as RegistryUnavailableError).reason]).toEqual(['whitelist', 'WL-100']);
  });
});

describe('company lookup', () => {
  it('fills a Polish company from the white list, its one-line address split', async () => {
    expect(await registries.lookupCompany('PL', 'PL 677-123-45-61')).toEqual({
      name: 'KWADRAT SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      street: 'UL. FLORIAŃSKA 3/5',
      post_code: '31-019',
      city: 'KRAKÓW',
      country: 'PL',
      tax_no: '6771234561',
      vat_active: true,
    });
    expect((await registries.lookupCompany('PL', '8981234568'))?.vat_active).toBe(false);
    expect(await registries.lookupCompany('PL', '5260250274')).toBeNull();
  });

  it('fills an EU company from VIES, as far as its member state discloses', async () => {
    expect(await registries.lookupCompany('AT', 'ATU 1234 5675')).toEqual({
      name: 'Alpen Design GmbH',
      street: 'Mariahilfer Straße 1',
      post_code: '1060',
      city: 'Wien',
      country: 'AT',
      tax_no: 'ATU12345675',
      vat_active: true,
    });
    expect(await registries.lookupCompany('DE', '812345673')).toEqual({ name: null, street: null, post_code: null, city: null, country: 'DE', tax_no: 'DE812345673', vat_active: true });
    expect(await registries.lookupCompany('DE', 'DE129273398')).toBeNull();
    doubles.vies.makeUnavailable('FR');
    const error = await rejectionOf(registries.lookupCompany('FR', 'FR19812345676'));
    doubles.vies.restore('FR');
    expect([(error as RegistryUnavailableError).registry, (error as RegistryUnavailableError).reason]).toEqual(['vies', 'MS_UNAVAILABLE']);
  });

  it('writes tax numbers in their normal form, or refuses them', () => {
    expect(normalTaxNumber('PL', 'PL 526-025-02-74')).toBe('5260250274');
    expect(normalTaxNumber('pl', '526.025.02.74')).toBe('5260250274');
    expect(normalTaxNumber('PL', '5260250275')).toBeUndefined();
    expect(normalTaxNumber('DE', 'de 812 345 673')).toBe('DE812345673');
    expect(normalTaxNumber('FR', '19812345676')).toBe('FR19812345676');
    expect(normalTaxNumber('GR', '094014298')).toBe('EL094014298');
    expect(normalTaxNumber('DE', 'DE812345674')).toBeUndefined();
  });

  it('splits the addresses registers write into street, post code and city', () => {
    const split = (country: string, address: string) => Object.values(splitAddress(country, address));
    expect(split('PL', 'UL. PORTOWA 12 LOK. 4, 81-350 GDYNIA')).toEqual(['UL. PORTOWA 12 LOK. 4', '81-350', 'GDYNIA']);
    expect(split('FR', '12 RUE DE LA PAIX\n75002 PARIS')).toEqual(['12 RUE DE LA PAIX', '75002', 'PARIS']);
    expect(split('IT', 'VIA ROMA 10 \n20121 MILANO MI\n')).toEqual(['VIA ROMA 10', '20121', 'MILANO MI']);
    expect(split('NL', 'KEIZERSGRACHT 00100\n1015CV AMSTERDAM\n')).toEqual(['KEIZERSGRACHT 00100', '1015CV', 'AMSTERDAM']);
    expect(split('CZ', 'Václavské náměstí 1\nNOVÉ MĚSTO\n110 00 PRAHA 1')).toEqual(['Václavské náměstí 1, NOVÉ MĚSTO', '110 00', 'PRAHA 1']);
    expect(split('IE', '1 GRAND CANAL SQUARE, DUBLIN 2, D02 X285')).toEqual(['1 GRAND CANAL SQUARE', 'D02 X285', 'DUBLIN 2']);
    expect(split('HU', '1051 BUDAPEST, FŐ UTCA 1.')).toEqual(['FŐ UTCA 1.', '1051', 'BUDAPEST']);
    expect(split('LU', '1, RUE DU FORT\nL-1234 LUXEMBOURG')).toEqual(['1, RUE DU FORT', '1234', 'LUXEMBOURG']);
    expect(split('SK', 'Hlavná 1\nKošice')).toEqual(['Hlavná 1', null, 'Košice']);
  });
});
