/**
 * Text an invoice can carry: what XML 1.0 allows (tab, LF, CR and everything from U+0020 on, but
 * U+FFFE, U+FFFF and unpaired UTF-16 surrogates), and so what KSeF's FA(3) documents accept, whose
 * string types add lengths but no characters of their own. A NUL is refused too: no PostgreSQL text
 * can hold one. The service's body pipeline, both checkouts and the BFF all call this one rule.
 */

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const TEXT_PROBLEM = {
  nul: 'must not contain NUL characters',
  forbidden: 'must not contain control characters, U+FFFE, U+FFFF or unpaired surrogates (XML and KSeF cannot carry them)',
} as const;

/** What is wrong with `value`'s characters, in the reference's words; `undefined` when nothing is. */
export function textProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return TEXT_PROBLEM.nul;
  return FORBIDDEN.test(value) ? TEXT_PROBLEM.forbidden : undefined;
}

/**
 * Each string in `value` (an object, an array or a string, at any depth) that fails `textProblem`,
 * by its dotted path (`buyer.name`, `positions.0.name`; `base` for `value` itself), with its problem.
 */
export function textProblems(value: unknown, path: readonly string[] = []): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (item: unknown, at: readonly string[]) => {
    if (typeof item === 'string') {
      const problem = textProblem(item);
      if (problem) found.set(at.join('.') || 'base', problem);
    } else if (Array.isArray(item)) {
      item.forEach((element, index) => visit(element, [...at, String(index)]));
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, element] of Object.entries(item)) visit(element, [...at, key]);
    }
  };
  visit(value, path);
  return found;
}
