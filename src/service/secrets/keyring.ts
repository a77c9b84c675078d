import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (payment, KSeF and webhook secrets, Offline keys, api_tokens, the integration
 * token, the signing secret) are sealed with AES-256-GCM under a key kept outside the database.
 * A sealed value names its key (`ik1.<key id>.<iv|tag|ciphertext, base64url>`), so that reads
 * accept every key the process knows while writes use the newest: rotation needs no downtime.
 *
 * The keys are the process's (one service per process in production); `useSecretKeys` adds keys,
 * the first given becoming the one new values are sealed with.
 */

const PREFIX = 'ik1.';
const KEY_BYTES = 32;

export interface SecretKey {
  /** 8 hex digits of the key's SHA-256: names the key in each value sealed with it. */
  readonly id: string;
  readonly key: Buffer;
}

/** Raised when a sealed value names a key this process does not have. */
export class SecretKeyMissingError extends Error {
  constructor(id: string) {
    super(`A secret in the database is sealed with the key ${id}, which this process does not have: give it in INVOICEKIT_SECRET_KEY (or the key file)`);
    this.name = 'SecretKeyMissingError';
  }
}

export function secretKeyOf(encoded: string): SecretKey {
  const key = Buffer.from(encoded.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`A secret key must be ${KEY_BYTES} bytes in base64 (openssl rand -base64 32); one given is ${key.length} bytes`);
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

export function newSecretKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

const known = new Map<string, SecretKey>();
let current: SecretKey | undefined;
/** Looks for keys the process does not know yet (a key file rotated meanwhile). */
let reload: (() => readonly SecretKey[]) | undefined;

/** Makes `keys` known; the first becomes the one new values are sealed with. `reloadKeys` finds newer ones. */
export function useSecretKeys(keys: readonly SecretKey[], reloadKeys?: () => readonly SecretKey[]): void {
  if (keys.length === 0) throw new Error('at least one secret key is needed');
  for (const key of keys) known.set(key.id, key);
  current = keys[0];
  if (reloadKeys) reload = reloadKeys;
}

function currentKey(): SecretKey {
  if (!current) throw new Error('no secret key is loaded: the service loads one at start');
  return current;
}

/** The id of the key new values are sealed with. */
export const currentKeyId = (): string => currentKey().id;

function keyById(id: string): SecretKey {
  let key = known.get(id);
  if (!key && reload) {
    for (const found of reload()) known.set(found.id, found);
    key = known.get(id);
  }
  if (!key) throw new SecretKeyMissingError(id);
  return key;
}

export const isSealed = (value: string): boolean => value.startsWith(PREFIX);

/** The key id a sealed value names, or `undefined` for a value in clear. */
export function sealedWith(value: string): string | undefined {
  return isSealed(value) ? value.slice(PREFIX.length, PREFIX.length + 8) : undefined;
}

export function sealSecret(text: string): string {
  const key = currentKey();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(Buffer.from(key.id));
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return `${PREFIX}${key.id}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
}

/** The clear text of a sealed value; a value stored before sealing existed comes back as it is. */
export function openSecret(value: string): string {
  const id = sealedWith(value);
  if (id === undefined) return value;
  const key = keyById(id);
  const bytes = Buffer.from(value.slice(PREFIX.length + 9), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key.key, bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(key.id));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

export const sealOptional = (value: string | null | undefined): string | null => (value == null ? null : sealSecret(value));
export const openOptional = (value: string | null | undefined): string | null => (value == null ? null : openSecret(value));

/**
 * The lookup hashes of an api_token, one per known key (HMAC-SHA-256 under a key derived from each),
 * the newest first: a token is found by hash under any key, and stored under the newest.
 */
export function tokenHashes(token: string): string[] {
  const keys = [currentKey(), ...[...known.values()].filter((key) => key !== current)];
  return keys.map((key) => tokenHashUnder(key, token));
}

export function tokenHash(token: string): string {
  return tokenHashUnder(currentKey(), token);
}

/**
 * Keyed digests of `text` for one `purpose`, one per known key, the newest first: a fingerprint of
 * something short enough to guess from a plain hash (a request carrying a six-digit BLIK code).
 */
export function keyedDigests(purpose: string, text: string): string[] {
  const keys = [currentKey(), ...[...known.values()].filter((key) => key !== current)];
  return keys.map((key) => createHmac('sha256', createHmac('sha256', key.key).update(`invoicekit ${purpose}`).digest()).update(text).digest('hex'));
}

function tokenHashUnder(key: SecretKey, token: string): string {
  const lookupKey = createHmac('sha256', key.key).update('invoicekit api_token lookup').digest();
  return createHmac('sha256', lookupKey).update(token).digest('base64url');
}
