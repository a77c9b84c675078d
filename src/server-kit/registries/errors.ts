import type { OutboundError } from '../outbound.js';

/** The tax registers and rate tables the servers consult. */
export type RegistryName = 'nbp' | 'vies' | 'whitelist';

/**
 * A register could not answer now (down, busy, too slow, answering nonsense). The caller decides what
 * waits: an invoice waits for its rate, a lookup answers 503, a checkout falls back to Polish VAT.
 */
export class RegistryUnavailableError extends Error {
  readonly registry: RegistryName;
  /** Why, in the register's own words where it gave any (`MS_UNAVAILABLE`, `WL-100`) or the failure's kind. */
  readonly reason: string;
  /** How long the register asked us to wait, when it did. */
  readonly retryAfterSeconds: number | undefined;

  constructor(registry: RegistryName, reason: string, extra: { retryAfterSeconds?: number | undefined; cause?: unknown } = {}) {
    super(`${registry} could not answer: ${reason}`, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'RegistryUnavailableError';
    this.registry = registry;
    this.reason = reason;
    this.retryAfterSeconds = extra.retryAfterSeconds;
  }
}

/** A register refused what it was asked as malformed (the white list's `WL-113`, say). */
export class RegistryInputError extends Error {
  readonly registry: RegistryName;
  readonly code: string;

  constructor(registry: RegistryName, code: string, message: string) {
    super(message);
    this.name = 'RegistryInputError';
    this.registry = registry;
    this.code = code;
  }
}

/** An outbound failure as the register's unavailability. */
export function unavailable(registry: RegistryName, error: OutboundError, reason?: string): RegistryUnavailableError {
  const why = reason ?? (error.kind === 'status' ? `HTTP ${error.status}` : error.kind);
  return new RegistryUnavailableError(registry, why, { retryAfterSeconds: error.retryAfterSeconds(), cause: error });
}

/** `YYYY-MM-DD` plus `days` (negative for earlier), on the calendar alone. */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

export const isDay = (value: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(value) && addDays(value, 0) === value;

/** `https://api.nbp.pl/` → `https://api.nbp.pl`. */
export const trimBase = (url: string): string => url.replace(/\/+$/, '');
