import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, unwatchFile, watchFile, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { newSecretKey, type SecretKey, secretKeyOf, useSecretKeys } from './keyring.js';

/**
 * Where the keys that seal secrets at rest come from, newest first:
 * - `secretKey` (an option) or `INVOICEKIT_SECRET_KEY`: base64 keys separated by commas, the first
 *   sealing new values, the others still read (during a rotation). On a server, where several
 *   processes share one database, every process is given the same.
 * - otherwise, with the embedded database, a key file beside the data folder (`<data folder>.key`),
 *   one key a line, made on first start with owner-only permissions (0600). A data folder, a dump
 *   or a backup read alone then holds no secret in clear.
 */
export interface SecretKeySource {
  /** Base64 keys, newest first, separated by commas (`INVOICEKIT_SECRET_KEY`). */
  secretKey?: string | undefined;
  /** The key file (`INVOICEKIT_SECRET_KEY_FILE`); default beside `dataDir` on the embedded database. */
  keyFile?: string | undefined;
  dataDir?: string | undefined;
  /** Set when the database is a PostgreSQL server, which several processes share. */
  databaseUrl?: string | undefined;
}

/** The key file of a data folder: beside it, never in it. */
export const keyFileOf = (dataDir: string): string => `${resolve(dataDir).replace(/[\\/]+$/, '')}.key`;

function keysIn(text: string): SecretKey[] {
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(secretKeyOf);
}

function readKeyFile(path: string): SecretKey[] {
  const mode = statSync(path).mode & 0o777;
  // Owner-only, whatever the umask or a copy left it as.
  if (process.platform !== 'win32' && mode !== 0o600) chmodSync(path, 0o600);
  return keysIn(readFileSync(path, 'utf8'));
}

/** Writes the key file whole, replacing it at once, readable by its owner only. */
export function writeKeyFile(path: string, keys: readonly string[]): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${keys.join('\n')}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** The key file the keys come from, or `undefined` when they are given directly (or kept in memory). */
export function keyFileFor(source: SecretKeySource, env: Record<string, string | undefined> = process.env): string | undefined {
  if (source.secretKey ?? env['INVOICEKIT_SECRET_KEY']) return undefined;
  const file = source.keyFile ?? env['INVOICEKIT_SECRET_KEY_FILE'];
  if (file) return resolve(file);
  if (source.databaseUrl) {
    throw new Error(
      'Secrets are sealed with a key kept outside the database, and on PostgreSQL several processes share it: set INVOICEKIT_SECRET_KEY ' +
        '(openssl rand -base64 32) to the same value in every process, or INVOICEKIT_SECRET_KEY_FILE to a file that holds it.',
    );
  }
  return source.dataDir ? keyFileOf(source.dataDir) : undefined;
}

/** Loads the keys (making the key file when there is none) and makes them the process's. */
export function loadSecretKeys(source: SecretKeySource, env: Record<string, string | undefined> = process.env): void {
  const given = source.secretKey ?? env['INVOICEKIT_SECRET_KEY'];
  if (given) return useSecretKeys(keysIn(given));
  const path = keyFileFor(source, env);
  // No data folder (an in-memory database): a key for this process's life, as long as the data's.
  if (!path) return useSecretKeys([secretKeyOf(newSecretKey())]);
  try {
    // A first start makes the data folder's parent too (`./.invoicekit/data` on a fresh clone).
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${newSecretKey()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') {
      throw new Error(`The secret key file ${path} cannot be made (${code}): set INVOICEKIT_SECRET_KEY, or INVOICEKIT_SECRET_KEY_FILE to a writable place outside the data folder`);
    }
  }
  useSecretKeys(readKeyFile(path), () => readKeyFile(path));
}

/** Puts a new key first in a key file, keeping the old ones for reading. Answers the new key's id. */
export function rotateKeyFile(path: string): string {
  const old = readFileSync(path, 'utf8').split(/\s+/).filter(Boolean);
  const fresh = newSecretKey();
  writeKeyFile(path, [fresh, ...old]);
  return secretKeyOf(fresh).id;
}

/**
 * Watches the key file a running embedded service seals with: when `invoicekit secrets rotate`
 * puts a new key first, the keys are loaded anew and `rotated` runs (the service re-seals every
 * secret under the new key), without a restart. Nothing to watch when the keys are given directly.
 * Answers the function that stops watching.
 */
export function watchKeyFile(source: SecretKeySource, rotated: () => void, intervalMs = 1_000): () => void {
  const path = keyFileFor(source);
  if (!path) return () => undefined;
  let first = readFileSync(path, 'utf8').split(/\s+/)[0];
  const changed = () => {
    let now: string | undefined;
    try {
      now = readFileSync(path, 'utf8').split(/\s+/)[0];
    } catch {
      return; // Gone for a moment (being replaced): the next look finds it.
    }
    if (!now || now === first) return;
    first = now;
    loadSecretKeys(source);
    rotated();
  };
  watchFile(path, { interval: intervalMs, persistent: false }, changed);
  return () => unwatchFile(path, changed);
}
