import { describe, expect, it } from 'vitest';
import { isEuVatNumber, taxNumberProblem } from '../../src/kernel/validation/client.js';
import { isValidVatNumber, VAT_NUMBER_CHECKS } from '../../src/kernel/validation/vat-numbers.js';

/**
 * Each EU country's VAT number by its own published check-digit rule: for every prefix, numbers the
 * tax office issued (or that its rule accepts) and the same numbers with one check digit changed.
 */
const CASES: Record<string, { valid: string[]; wrong: string[] }> = {
  AT: { valid: ['U13585627'], wrong: ['U13585626', '13585627'] },
  BE: { valid: ['0403019261', '0428759497', '428759497'], wrong: ['0431150351', '2403019261'] },
  BG: { valid: ['175074752'], wrong: ['175074751'] },
  CY: { valid: ['10259033P'], wrong: ['10259033Z', '12259033P'] },
  CZ: { valid: ['25123891', '7103192745', '640903926'], wrong: ['25123890', '7103192746'] },
  DE: { valid: ['136695976', '111111125'], wrong: ['136695978', '123456789', '036695976'] },
  DK: { valid: ['13585628'], wrong: ['13585627'] },
  EE: { valid: ['100931558', '100594102'], wrong: ['100594103'] },
  EL: { valid: ['094259216', '094014201'], wrong: ['123456781'] },
  ES: { valid: ['B58378431', 'B64717838', '54362315K', 'X5253868R', 'M1234567L', 'A28015865'], wrong: ['B64717839', '54362315A', 'X5253868T'] },
  FI: { valid: ['20774740'], wrong: ['20774741'] },
  FR: { valid: ['40303265045', '23334175221', 'K7399859412', '4Z123456782'], wrong: ['84323140391', 'IO334175221'] },
  HR: { valid: ['33392005961'], wrong: ['33392005962'] },
  HU: { valid: ['12892312'], wrong: ['12892313'] },
  IE: { valid: ['6433435F', '6433435OA', '8D79739I', '6388047V'], wrong: ['6433435E', '8D79739J'] },
  IT: { valid: ['00743110157'], wrong: ['00743110158', '00000000000'] },
  LT: { valid: ['119511515', '100001919017', '100004801610'], wrong: ['100001919018', '119511516'] },
  LU: { valid: ['15027442'], wrong: ['15027443'] },
  LV: { valid: ['40003521600', '16117519997'], wrong: ['40003521601'] },
  MT: { valid: ['11679112'], wrong: ['11679113'] },
  NL: { valid: ['004495445B01', '002455799B11'], wrong: ['123456789B90', '004495445A01'] },
  PL: { valid: ['5252445767', '1234563218'], wrong: ['5252445768', '1234567890'] },
  PT: { valid: ['501964843'], wrong: ['501964842'] },
  RO: { valid: ['18547290'], wrong: ['18547291', '08547290'] },
  SE: { valid: ['123456789701', '556703748501'], wrong: ['123456789101', '556703748502'] },
  SI: { valid: ['50223054'], wrong: ['50223055'] },
  SK: { valid: ['2022749619'], wrong: ['2022749618'] },
  XI: { valid: ['980780684'], wrong: ['980780685'] },
};

describe('EU VAT numbers by their check digits', () => {
  it('has a rule and cases for every EU member state, Northern Ireland and the United Kingdom', () => {
    expect(Object.keys(VAT_NUMBER_CHECKS).sort()).toEqual([...Object.keys(CASES), 'GB'].sort());
  });

  for (const [prefix, { valid, wrong }] of Object.entries(CASES)) {
    it(`${prefix}: accepts issued numbers and refuses a changed check digit`, () => {
      for (const number of valid) {
        expect(isValidVatNumber(prefix, number), `${prefix}${number}`).toBe(true);
        expect(isEuVatNumber(`${prefix} ${number}`), `${prefix} ${number}`).toBe(true);
      }
      for (const number of wrong) expect(isValidVatNumber(prefix, number), `${prefix}${number}`).toBe(false);
    });
  }

  it('reads a number without its prefix by the client’s country, as <client-form> does', () => {
    expect(taxNumberProblem('136695976', 'DE')).toBeUndefined();
    expect(taxNumberProblem('136695978', 'DE')).toBe('vat');
    expect(taxNumberProblem('DE136695978', 'PL')).toBe('vat');
    expect(taxNumberProblem('525-244-57-67', 'PL')).toBeUndefined();
    expect(taxNumberProblem('XX123', 'PL')).toBe('nip');
    expect(taxNumberProblem('EL094259216', '')).toBeUndefined();
  });
});
