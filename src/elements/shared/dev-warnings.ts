import { DEV } from './dev-mode.js';

const issued = new Set<string>();

/**
 * Call it under `if (DEV)`, so production builds drop the call and its text.
 *
 * Tells the page author, once per element kind, attribute and value, that an attribute value was not
 * understood and what is used instead. A wrong attribute is a bug in the host page, so it is reported
 * rather than dropped silently; the console is the only place that does not disturb the customer.
 */
export function warnInvalidAttribute(
  tagName: string,
  attribute: string,
  value: unknown,
  expected: string,
  fallback: unknown,
): void {
  const key = `${tagName}|${attribute}|${String(value)}`;
  if (issued.has(key)) return;
  issued.add(key);
  console.warn(
    `<${tagName.toLowerCase()}>: ${attribute}="${String(value)}" is not valid; expected ${expected}. Using ${JSON.stringify(fallback)}.`,
  );
}

/** Reads an attribute value that must be one of `allowed`, warning and falling back when it is not. */
export function oneOf<T extends string>(
  element: HTMLElement,
  attribute: string,
  value: string | null | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value == null || value === '') return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  if (DEV) warnInvalidAttribute(element.tagName, attribute, value, allowed.map((a) => `"${a}"`).join(', '), fallback);
  return fallback;
}
