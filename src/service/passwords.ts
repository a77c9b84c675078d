import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** Passwords are kept as scrypt hashes: `scrypt$N$r$p$salt$hash`, never as plain text. */
const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
/** Longer passwords are refused rather than hashed: no real password is this long. */
export const MAX_PASSWORD_LENGTH = 1024;

/**
 * scrypt runs on libuv's thread pool, off the event loop; this bounds how many run at once and how
 * many may wait, so a flood of logins cannot take every thread (file and DNS work share them) or
 * queue up unbounded work. A request that finds the queue full is answered at once.
 */
const MAX_RUNNING = 2;
const MAX_WAITING = 32;

export class HashingBusyError extends Error {
  constructor() {
    super('Too many logins are being checked at the moment. Try again in a second.');
    this.name = 'HashingBusyError';
  }
}

let running = 0;
const waiting: (() => void)[] = [];

async function withHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) {
    if (waiting.length >= MAX_WAITING) throw new HashingBusyError();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running += 1;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter, so `running` stays counted.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return withHashingSlot(
    () =>
      new Promise((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Stands in for the stored hash of a login that does not exist, so that both cost one scrypt. */
const DUMMY_HASH = ['scrypt', N, R, P, randomBytes(16).toString('base64url'), randomBytes(KEY_LENGTH).toString('base64url')].join('$');

/**
 * True when `password` matches `stored`. Without a stored hash (an unknown login) the same work is
 * done against a dummy, so the answer takes as long for a login that exists as for one that does not.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = (stored ?? DUMMY_HASH).split('$');
  const usable = scheme === 'scrypt' && Boolean(salt) && Boolean(hash) && Number(n) <= 1 << 20 && Number(r) <= 32 && Number(p) <= 16;
  const [, dn, dr, dp, dsalt, dhash] = DUMMY_HASH.split('$');
  const [cn, cr, cp, csalt, chash] = usable ? [n, r, p, salt, hash] : [dn, dr, dp, dsalt, dhash];
  const expected = Buffer.from(chash!, 'base64url');
  const actual = await derive(password.slice(0, MAX_PASSWORD_LENGTH), Buffer.from(csalt!, 'base64url'), Number(cn), Number(cr), Number(cp));
  const same = actual.length === expected.length && timingSafeEqual(actual, expected);
  return same && usable && stored !== undefined && password.length <= MAX_PASSWORD_LENGTH;
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
