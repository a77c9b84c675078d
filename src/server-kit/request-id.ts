/**
 * Request ids, the same rule for the service and the BFF: every answer carries one in
 * `X-Request-Id`, and so does every log line about the request. A proxy the server trusts may have
 * given the request its id already; that id is kept when it is a sane token, so one id follows a
 * request through every hop. Anyone else's header is ignored: a caller could otherwise fill the
 * logs with ids of its choosing.
 */

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** 1 to 128 letters, digits and `._:-`: a UUID, a ULID or a proxy's own ids, and nothing a log line could trip on. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function isSaneRequestId(value: string | null | undefined): value is string {
  return typeof value === 'string' && SANE_REQUEST_ID.test(value);
}

/** The request's id: the one a trusted proxy sent when it is sane, else a new random UUID. */
export function requestIdOf(sent: string | null | undefined, fromTrustedProxy: boolean): string {
  return fromTrustedProxy && isSaneRequestId(sent) ? sent : crypto.randomUUID();
}
