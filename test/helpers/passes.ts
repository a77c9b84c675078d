import { describe } from 'vitest';

/**
 * `describe` for a file that the PostgreSQL pass (`DATABASE_URL` set) would only repeat, because
 * nothing in it runs on the pass's database: it pins PGlite on purpose (a data folder's lock, a
 * crash on disk), or it starts no service at all (the KSeF double alone). It runs in the main pass;
 * the PostgreSQL pass reports it skipped. Every `describe` of such a file uses it, so the file's own
 * hooks do not run either.
 */
export const describeOutsidePostgresPass = describe.skipIf(Boolean(process.env.DATABASE_URL));
