/**
 * Reading request data that came from anyone. Field names that reach a prototype (`__proto__`,
 * `constructor`, `prototype`) are refused wherever they appear, and nesting is bounded, so a body
 * can never change how the process reads or authenticates another request.
 */

/** Names that, used as a key, read or write an object's prototype instead of a field. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Deepest nesting of objects and arrays a request body may have. */
export const MAX_BODY_DEPTH = 32;

export class UnsafeInputError extends Error {
  readonly reason: 'syntax' | 'depth' | 'size' | 'reserved-key';
  readonly key: string | undefined;

  constructor(reason: UnsafeInputError['reason'], message: string, key?: string) {
    super(message);
    this.name = 'UnsafeInputError';
    this.reason = reason;
    this.key = key;
  }
}

export const reservedKeyError = (key: string) =>
  new UnsafeInputError('reserved-key', `The field name "${key}" is not allowed`, key);

const depthError = (max: number) => new UnsafeInputError('depth', `The body is nested deeper than ${max} levels`);

/**
 * Most values (array items and object members) a request body may have: parsing time grows with
 * them, not with the bytes. An invoice of 500 positions has about 10,000.
 */
export const MAX_BODY_VALUES = 50_000;

/**
 * The deepest nesting of `[` and `{` in JSON text, and about how many values it holds (each `,`
 * and each opening bracket), counted without parsing (strings are skipped).
 */
function jsonShape(text: string, maxDepth: number, maxValues: number): void {
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i += 1; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b || char === 0x2c) {
      values += 1;
      if (values > maxValues) throw new UnsafeInputError('size', `The body has more than ${maxValues} values`);
      if (char === 0x2c) continue;
      depth += 1;
      if (depth > maxDepth) throw depthError(maxDepth);
    } else if (char === 0x5d || char === 0x7d) depth -= 1;
  }
}

/** `JSON.parse` for untrusted text: refuses reserved field names, nesting deeper than `maxDepth` and more than `maxValues` values. */
export function parseJsonInput(text: string, maxDepth = MAX_BODY_DEPTH, maxValues = MAX_BODY_VALUES): unknown {
  jsonShape(text, maxDepth, maxValues);
  try {
    return JSON.parse(text, (key, value: unknown) => {
      if (RESERVED_KEYS.has(key)) throw reservedKeyError(key);
      return value;
    });
  } catch (error) {
    if (error instanceof UnsafeInputError) throw error;
    throw new UnsafeInputError('syntax', 'The body is not valid JSON');
  }
}

/**
 * Checks a value built by any parser (form, multipart, XML): no reserved field name at any level and
 * no nesting deeper than `maxDepth`. Values that are not plain data (a file) are left alone.
 */
export function assertPlainInput(value: unknown, maxDepth = MAX_BODY_DEPTH, depth = 0): void {
  if (typeof value !== 'object' || value === null) return;
  if (typeof Blob !== 'undefined' && value instanceof Blob) return;
  if (depth >= maxDepth) throw depthError(maxDepth);
  if (Array.isArray(value)) {
    for (const item of value) assertPlainInput(item, maxDepth, depth + 1);
    return;
  }
  for (const key of Object.keys(value)) {
    if (RESERVED_KEYS.has(key)) throw reservedKeyError(key);
    assertPlainInput((value as Record<string, unknown>)[key], maxDepth, depth + 1);
  }
}
