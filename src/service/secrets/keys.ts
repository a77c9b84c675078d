import { chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
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
  secretKey?: string | undefined;
  dataDir?: string | undefined;
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

/** Loads the keys (making the key file when there is none) and makes them the process's. */
export function loadSecretKeys(source: SecretKeySource, env: Record<string, string | undefined> = process.env): void {
  const given = source.secretKey ?? env['INVOICEKIT_SECRET_KEY'];
  if (given) return useSecretKeys(keysIn(given));
  if (!source.dataDir) return useSecretKeys([secretKeyOf(newSecretKey())]);
  const path = keyFileOf(source.dataDir);
  try {
    writeFileSync(path, `${newSecretKey()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  useSecretKeys(readKeyFile(path), () => readKeyFile(path));
}

/** Puts a new key first in the data folder's key file, keeping the old ones for reading. Answers the new key's id. */
export function rotateKeyFile(dataDir: string): string {
  const path = keyFileOf(dataDir);
  const old = readFileSync(path, 'utf8').split(/\s+/).filter(Boolean);
  const fresh = newSecretKey();
  writeKeyFile(path, [fresh, ...old]);
  return secretKeyOf(fresh).id;
}
