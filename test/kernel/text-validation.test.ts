import { describe, expect, it } from 'vitest';
import { TEXT_PROBLEM, textProblem, textProblems } from '../../src/kernel/validation/text.js';

describe('text an invoice can carry', () => {
  it('takes tab, LF, CR, letters of every script, emoji and the last characters XML allows', () => {
    for (const value of ['Zażółć gęślą jaźń', 'a\tb\nc\r\nd', '株式会社', 'Kawa ☕ 😀', '\u00a0\u007f\u0085\uFFFD', '\uE000\uFFFC']) {
      expect(textProblem(value), JSON.stringify(value)).toBeUndefined();
    }
  });

  it('refuses NUL, the other C0 controls, U+FFFE, U+FFFF and unpaired surrogates', () => {
    expect(textProblem('a\u0000b')).toBe(TEXT_PROBLEM.nul);
    for (const value of ['\u0001', 'x\u0008', '\u000B', '\u000C', '\u000E', '\u001F', 'A\uFFFEB', '\uFFFF', 'x\uD800', '\uDC00y', '\uDBFF\uDBFF\uDC00']) {
      expect(textProblem(value), JSON.stringify(value)).toBe(TEXT_PROBLEM.forbidden);
    }
  });

  it('names each bad string of a body by its dotted path', () => {
    const body = { buyer: { name: 'Ok', city: 'Kraków\u0001' }, positions: [{ name: 'fine' }, { name: '\uFFFE' }], note: 'a\u0000', count: 3 };
    expect(Object.fromEntries(textProblems(body))).toEqual({
      'buyer.city': TEXT_PROBLEM.forbidden,
      'positions.1.name': TEXT_PROBLEM.forbidden,
      note: TEXT_PROBLEM.nul,
    });
    expect(Object.fromEntries(textProblems('\u0002'))).toEqual({ base: TEXT_PROBLEM.forbidden });
  });
});
