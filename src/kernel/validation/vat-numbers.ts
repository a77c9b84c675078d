/**
 * EU VAT numbers checked by each member state's own published check-digit rule (the rules VIES and
 * the tax offices document), not only by their format. Each check takes the number without its
 * country prefix and with separators removed. Plain functions with no dependencies, shared by the
 * service, the BFF and the elements.
 */

const digitsOf = (value: string): number[] => [...value].map(Number);
const isDigits = (value: string, length?: number): boolean => /^\d+$/.test(value) && (length === undefined || value.length === length);
const weighted = (value: string, weights: readonly number[]): number =>
  digitsOf(value).reduce((total, digit, i) => total + digit * (weights[i] ?? 0), 0);

/** Luhn (ISO/IEC 7812): used by Italy, Sweden, France's SIREN and Spain's CIF. */
export function luhnValid(value: string): boolean {
  if (!isDigits(value)) return false;
  let sum = 0;
  for (const [i, digit] of digitsOf(value).reverse().entries()) {
    const doubled = i % 2 === 1 ? digit * 2 : digit;
    sum += doubled > 9 ? doubled - 9 : doubled;
  }
  return sum % 10 === 0;
}

/** ISO 7064 MOD 11,10: Germany and Croatia. */
function mod11_10Valid(value: string): boolean {
  let check = 5;
  for (const digit of digitsOf(value)) check = (((check || 10) * 2) % 11 + digit) % 10;
  return check === 1;
}

/** ISO 7064 MOD 97-10 over letters and digits (A = 10 … Z = 35): the Netherlands' newer numbers. */
function mod97_10Valid(value: string): boolean {
  let rest = 0;
  for (const char of value) {
    const n = parseInt(char, 36);
    rest = (n > 9 ? rest * 100 + n : rest * 10 + n) % 97;
  }
  return rest === 1;
}

/** A birth number of Czechia and Slovakia (rodné číslo): ten digits divisible by 11, or nine from before 1954. */
function birthNumberValid(value: string): boolean {
  if (!isDigits(value) || (value.length !== 9 && value.length !== 10)) return false;
  const month = Number(value.slice(2, 4)) % 50 % 20;
  const day = Number(value.slice(4, 6));
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  return value.length === 9 || Number(BigInt(value.slice(0, 9)) % 11n % 10n) === Number(value[9]);
}

const SPANISH_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

function spainValid(value: string): boolean {
  if (!/^[A-Z0-9]\d{7}[A-Z0-9]$/.test(value)) return false;
  const first = value[0]!;
  const last = value[8]!;
  const body = value.slice(1, 8);
  // Residents (DNI), foreigners (NIE: X, Y, Z stand for 0, 1, 2) and K, L, M persons: a letter mod 23.
  if (/\d/.test(first)) return SPANISH_LETTERS[Number(value.slice(0, 8)) % 23] === last;
  if ('XYZ'.includes(first)) return SPANISH_LETTERS[Number(`${'XYZ'.indexOf(first)}${body}`) % 23] === last;
  if ('KLM'.includes(first)) return SPANISH_LETTERS[Number(body) % 23] === last;
  // Companies (CIF): Luhn over the seven digits, written as a digit or a letter.
  if (!'ABCDEFGHJNPQRSUVW'.includes(first)) return false;
  let check = 0;
  for (let n = 0; n <= 9; n += 1) {
    if (luhnValid(`${body}${n}`)) check = n;
  }
  return last === String(check) || last === 'JABCDEFGHI'[check];
}

const FRENCH_KEY_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

function franceValid(value: string): boolean {
  if (!/^[0-9A-HJ-NP-Z]{2}\d{9}$/.test(value)) return false;
  const siren = value.slice(2);
  // Monaco's numbers (000…) are VAT numbers without a SIREN.
  if (!siren.startsWith('000') && !luhnValid(siren)) return false;
  if (isDigits(value.slice(0, 2))) return Number(value.slice(0, 2)) === Number(BigInt(`${siren}12`) % 97n);
  const a = FRENCH_KEY_ALPHABET.indexOf(value[0]!);
  const b = FRENCH_KEY_ALPHABET.indexOf(value[1]!);
  const check = /\d/.test(value[0]!) ? a * 24 + b - 10 : a * 34 + b - 100;
  return (Number(siren) + 1 + Math.floor(check / 11)) % 11 === check % 11;
}

const IRISH_LETTERS = 'WABCDEFGHIJKLMNOPQRSTUV';

function irelandValid(value: string): boolean {
  const check = (digits: string, extra: string) =>
    IRISH_LETTERS[(weighted(digits.padStart(7, '0'), [8, 7, 6, 5, 4, 3, 2]) + 9 * IRISH_LETTERS.indexOf(extra)) % 23];
  // Since 2013: seven digits, the check letter and an optional second letter.
  const current = /^(\d{7})([A-W])([A-I]?)$/.exec(value);
  if (current) return check(current[1]!, current[3] || 'W') === current[2];
  // Before: a digit, a letter or symbol, five digits and the check letter; the first digit moves to the end.
  const old = /^(\d)[A-Z+*](\d{5})([A-W])$/.exec(value);
  return !!old && check(`0${old[2]}${old[1]}`, 'W') === old[3];
}

function lithuaniaValid(value: string): boolean {
  if (!isDigits(value) || !((value.length === 9 && value[7] === '1') || (value.length === 12 && value[10] === '1'))) return false;
  const body = value.slice(0, -1);
  let check = digitsOf(body).reduce((total, digit, i) => total + (1 + (i % 9)) * digit, 0) % 11;
  if (check === 10) check = digitsOf(body).reduce((total, digit, i) => total + (1 + ((i + 2) % 9)) * digit, 0) % 11;
  return check % 10 === Number(value.at(-1));
}

function latviaValid(value: string): boolean {
  if (!isDigits(value, 11)) return false;
  // Companies start above 3; people's codes carry their own check digit.
  if (value[0]! > '3') return weighted(value, [9, 1, 4, 8, 3, 10, 2, 5, 7, 6, 1]) % 11 === 3;
  return (1 + weighted(value.slice(0, 10), [10, 5, 8, 4, 2, 1, 6, 3, 7, 9])) % 11 % 10 === Number(value[10]);
}

function netherlandsValid(value: string): boolean {
  if (!/^\d{9}B\d{2}$/.test(value) || Number(value.slice(0, 9)) === 0 || Number(value.slice(10)) === 0) return false;
  // The older numbers are a BSN-style eleven test; since 2020 sole traders' numbers pass MOD 97-10 instead.
  const elevenTest = (weighted(value.slice(0, 8), [9, 8, 7, 6, 5, 4, 3, 2]) - Number(value[8])) % 11 === 0;
  return elevenTest || mod97_10Valid(`NL${value}`);
}

function swedenValid(value: string): boolean {
  return isDigits(value, 12) && value.endsWith('01') && luhnValid(value.slice(0, 10));
}

function czechiaValid(value: string): boolean {
  if (!isDigits(value)) return false;
  if (value.length === 8) {
    if (value[0] === '9') return false;
    const check = (11 - weighted(value, [8, 7, 6, 5, 4, 3, 2])) % 11;
    return (((check + 11) % 11) || 1) % 10 === Number(value[7]);
  }
  if (value.length === 9 && value[0] === '6') {
    const check = weighted(value.slice(1, 8), [8, 7, 6, 5, 4, 3, 2]) % 11;
    return (8 - ((10 - check) % 11)) % 10 === Number(value[8]);
  }
  return birthNumberValid(value);
}

function slovakiaValid(value: string): boolean {
  if (!isDigits(value, 10)) return false;
  if (birthNumberValid(value)) return true;
  return value[0] !== '0' && '234789'.includes(value[2]!) && BigInt(value) % 11n === 0n;
}

function bulgariaValid(value: string): boolean {
  if (isDigits(value, 9)) {
    let check = weighted(value, [1, 2, 3, 4, 5, 6, 7, 8]) % 11;
    if (check === 10) check = weighted(value, [3, 4, 5, 6, 7, 8, 9, 10]) % 11;
    return check % 10 === Number(value[8]);
  }
  if (!isDigits(value, 10)) return false;
  const last = Number(value[9]);
  const person = weighted(value, [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11 % 10 === last;
  const foreigner = weighted(value, [21, 19, 17, 13, 11, 9, 7, 3, 1]) % 10 === last;
  const other = (11 - (weighted(value, [4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11)) % 11 === last;
  return person || foreigner || other;
}

function romaniaValid(value: string): boolean {
  if (!/^[1-9]\d{1,9}$/.test(value)) return false;
  const body = value.slice(0, -1).padStart(9, '0');
  return ((10 * weighted(body, [7, 5, 3, 2, 1, 7, 5, 3, 2])) % 11) % 10 === Number(value.at(-1));
}

function cyprusValid(value: string): boolean {
  if (!/^\d{8}[A-Z]$/.test(value) || value.startsWith('12')) return false;
  const odd = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21];
  const sum = digitsOf(value.slice(0, 8)).reduce((total, digit, i) => total + (i % 2 === 0 ? odd[digit]! : digit), 0);
  return String.fromCharCode(65 + (sum % 26)) === value[8];
}

function greeceValid(value: string): boolean {
  const number = value.length === 8 ? `0${value}` : value;
  if (!isDigits(number, 9)) return false;
  const sum = digitsOf(number.slice(0, 8)).reduce((total, digit) => total * 2 + digit, 0);
  return ((sum * 2) % 11) % 10 === Number(number[8]);
}

/** The United Kingdom and Northern Ireland (XI): the modulus 97 test and its 2010 variant (+55). */
function britainValid(value: string): boolean {
  if (/^(GD[0-4]\d{2}|HA[5-9]\d{2})$/.test(value)) return true;
  if (!isDigits(value) || (value.length !== 9 && value.length !== 12)) return false;
  const sum = weighted(value.slice(0, 7), [8, 7, 6, 5, 4, 3, 2]) + Number(value.slice(7, 9));
  return sum % 97 === 0 || (sum + 55) % 97 === 0;
}

/** The check of each VAT prefix (Greece is EL), given the number after the prefix. */
export const VAT_NUMBER_CHECKS: Record<string, (number: string) => boolean> = {
  AT: (n) => /^U\d{8}$/.test(n) && (10 - ((digitsOf(n.slice(1, 8)).reduce((t, d, i) => t + (i % 2 ? Math.floor((d * 2) / 10) + ((d * 2) % 10) : d), 0) + 4) % 10)) % 10 === Number(n[8]),
  BE: (n) => {
    const number = n.length === 9 ? `0${n}` : n;
    return isDigits(number, 10) && '01'.includes(number[0]!) && Number(number) > 0 && 97 - (Number(number.slice(0, 8)) % 97) === Number(number.slice(8));
  },
  BG: bulgariaValid,
  CY: cyprusValid,
  CZ: czechiaValid,
  DE: (n) => isDigits(n, 9) && n[0] !== '0' && mod11_10Valid(n),
  DK: (n) => isDigits(n, 8) && n[0] !== '0' && weighted(n, [2, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0,
  EE: (n) => isDigits(n, 9) && weighted(n, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 === 0,
  EL: greeceValid,
  ES: spainValid,
  FI: (n) => isDigits(n, 8) && weighted(n, [7, 9, 10, 5, 8, 4, 2, 1]) % 11 === 0,
  FR: franceValid,
  HR: (n) => isDigits(n, 11) && mod11_10Valid(n),
  HU: (n) => isDigits(n, 8) && weighted(n, [9, 7, 3, 1, 9, 7, 3, 1]) % 10 === 0,
  IE: irelandValid,
  IT: (n) => {
    const province = n.slice(7, 10);
    return isDigits(n, 11) && Number(n.slice(0, 7)) > 0 && ((province >= '001' && province <= '100') || ['120', '121', '888', '999'].includes(province)) && luhnValid(n);
  },
  LT: lithuaniaValid,
  LU: (n) => isDigits(n, 8) && Number(n.slice(0, 6)) % 89 === Number(n.slice(6)),
  LV: latviaValid,
  MT: (n) => isDigits(n, 8) && n[0] !== '0' && weighted(n, [3, 4, 6, 7, 8, 9, 10, 1]) % 37 === 0,
  NL: netherlandsValid,
  PL: (n) => isDigits(n, 10) && weighted(n, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11 === Number(n[9]),
  PT: (n) => isDigits(n, 9) && n[0] !== '0' && ((11 - (weighted(n, [9, 8, 7, 6, 5, 4, 3, 2]) % 11)) % 11) % 10 === Number(n[8]),
  RO: romaniaValid,
  SE: swedenValid,
  SI: (n) => {
    if (!isDigits(n, 8) || n[0] === '0') return false;
    const check = 11 - (weighted(n, [8, 7, 6, 5, 4, 3, 2]) % 11);
    return check !== 11 && (check === 10 ? 0 : check) === Number(n[7]);
  },
  SK: slovakiaValid,
  XI: britainValid,
  GB: britainValid,
};

/** Whether `number` (without its prefix) is a valid VAT number of the country whose VAT prefix is `prefix`. */
export function isValidVatNumber(prefix: string, number: string): boolean {
  return VAT_NUMBER_CHECKS[prefix]?.(number) ?? false;
}
