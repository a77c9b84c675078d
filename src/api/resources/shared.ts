import type { CallOptions, QueryValue } from '../transport.js';

/** A record id: the integer the service assigned (numeric text is accepted too). */
export type Id = number | string;

/** One path segment for an id, refusing anything that could change the path. */
export function idSegment(id: Id): string {
  const text = String(id).trim();
  if (!/^\d+$/.test(text)) throw new TypeError(`an id is a positive integer, got ${JSON.stringify(id)}`);
  return text;
}

/** The query of a list call as the transport sends it; objects and functions are refused. */
export function toQuery(query: object | undefined): Record<string, QueryValue> {
  const result: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') result[key] = value;
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) {
      // `invoice_ids` is a comma list for the hosted service; other lists go as Rails arrays.
      result[key] = key === 'invoice_ids' ? value.join(',') : (value as (string | number)[]);
    } else throw new TypeError(`query parameter ${key} must be text, a number, a boolean or a list of them`);
  }
  return result;
}

/** The largest page the interface serves; a bigger `per_page` is clamped by the service. */
export const MAX_PER_PAGE = 100;
const DEFAULT_PER_PAGE = 25;

interface PageQuery {
  page?: unknown;
  per_page?: unknown;
}

/**
 * Walks the pages of a list from `query.page` (default 1) and stops at the first page shorter than
 * `per_page`, the rule the interface gives (lists carry no total).
 */
export async function* paginate<Q extends PageQuery, T>(
  list: (query: Q, options?: CallOptions) => Promise<T[]>,
  query: Q,
  options?: CallOptions,
): AsyncGenerator<T, void, undefined> {
  const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Math.floor(Number(query.per_page ?? DEFAULT_PER_PAGE)) || DEFAULT_PER_PAGE));
  let page = Math.max(1, Math.floor(Number(query.page ?? 1)) || 1);
  for (;;) {
    options?.signal?.throwIfAborted();
    const items = await list({ ...query, page, per_page: perPage }, options);
    for (const item of items) {
      options?.signal?.throwIfAborted();
      yield item;
    }
    if (items.length < perPage) return;
    page += 1;
  }
}

/** Every item of an async iterable, in order. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const result: T[] = [];
  for await (const item of items) result.push(item);
  return result;
}
