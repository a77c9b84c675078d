import type { BffOptions } from './options.js';
import { MIN_PORTAL_SECRET_BYTES } from './portal-token.js';

/**
 * Checks what `createBff` was given before anything uses it, so a missing or malformed option stops
 * the host at start-up with a message naming it, not with a TypeError deep in the first request.
 */
export function checkBffOptions(options: unknown): asserts options is BffOptions {
  if (typeof options !== 'object' || options === null) throw optionError('createBff needs an options object');
  const given = options as Record<string, unknown>;

  const secret = given.portalSecret;
  if (secret === undefined || secret === null || secret === '') {
    throw optionError(`\`portalSecret\` is required: the secret portal tokens are signed with, at least ${MIN_PORTAL_SECRET_BYTES} bytes (INVOICEKIT_PORTAL_SECRET in the examples)`);
  }
  if (typeof secret !== 'string' && !(secret instanceof Uint8Array)) throw optionError('`portalSecret` must be a string or a Uint8Array');
  const bytes = typeof secret === 'string' ? new TextEncoder().encode(secret).byteLength : secret.byteLength;
  if (bytes < MIN_PORTAL_SECRET_BYTES) throw optionError(`\`portalSecret\` must be at least ${MIN_PORTAL_SECRET_BYTES} bytes long, not ${bytes}`);

  if (given.client === undefined) {
    const missing = ['serviceUrl', 'apiToken'].filter((name) => given[name] === undefined || given[name] === null || given[name] === '');
    if (missing.length) {
      throw optionError(`${missing.map((name) => `\`${name}\``).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} required (or a \`client\`): the invoicing service's address and the account's api_token`);
    }
    if (typeof given.apiToken !== 'string') throw optionError('`apiToken` must be a string');
    if (!isWebUrl(given.serviceUrl)) throw optionError(`\`serviceUrl\` must be an http(s) address, not ${describe(given.serviceUrl)}`);
  } else if (typeof given.client !== 'object' || given.client === null) {
    throw optionError('`client` must be a typed client of the invoicing service');
  }

  if (given.serviceFetch !== undefined && typeof given.serviceFetch !== 'function') throw optionError('`serviceFetch` must be a `fetch` function');
  if (given.serviceWriteCount !== undefined && typeof given.serviceWriteCount !== 'function') throw optionError('`serviceWriteCount` must be a function that answers a number');
  if (given.allowedOrigins !== undefined && !Array.isArray(given.allowedOrigins)) throw optionError('`allowedOrigins` must be a list of origins');
  if (given.returnUrlOrigins !== undefined && !Array.isArray(given.returnUrlOrigins)) throw optionError('`returnUrlOrigins` must be a list of origins');
  if (given.publicUrl !== undefined && !isWebUrl(given.publicUrl)) throw optionError(`\`publicUrl\` must be an http(s) address, not ${describe(given.publicUrl)}`);
  if (given.basePath !== undefined && typeof given.basePath !== 'string') throw optionError('`basePath` must be a path such as /bff');
  for (const name of ['trustProxy', 'bodyLimitBytes', 'serviceTimeoutMs', 'productCacheMs', 'pdfLinkTtlSeconds', 'maxInvoicesPerClient']) {
    const value = given[name];
    const least = name === 'trustProxy' || name === 'productCacheMs' ? 0 : 1;
    if (value !== undefined && !(typeof value === 'number' && Number.isInteger(value) && value >= least)) {
      throw optionError(`\`${name}\` must be a whole number of at least ${least}, not ${describe(value)}`);
    }
  }
  const webhooks = given.webhooks as Record<string, unknown> | undefined;
  if (webhooks !== undefined && (typeof webhooks !== 'object' || webhooks === null || !webhooks.secret)) {
    throw optionError('`webhooks.secret` is required when `webhooks` is given: the signing secret of the service\'s webhooks');
  }
}

function optionError(message: string): TypeError {
  return new TypeError(`createBff: ${message}.`);
}

function isWebUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** A value for a message, never a secret: options that carry secrets are not described. */
function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return value === null ? 'null' : typeof value;
}
