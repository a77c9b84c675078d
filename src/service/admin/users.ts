import { z } from 'zod';
import type { Database } from '../db.js';
import { accountIdByPrefix, accountUserByLogin, accountUserCount, insertAccountUser, loginTaken } from '../data/account-users.js';
import { hashPassword, verifyPassword } from '../passwords.js';

/**
 * The back office's users: `invoicekit users create` makes a deployment's first one (or any other),
 * and a seeded demo gets an owner whose sign-in the start prints. They are the users of `login.json`.
 */
const newUser = z.object({
  login: z.string().trim().min(1, "can't be blank").max(100, 'is too long (maximum is 100 characters)'),
  email: z.string().trim().max(300, 'is too long (maximum is 300 characters)').pipe(z.email({ message: 'is not an e-mail address' })),
  password: z.string().min(8, 'is too short (minimum is 8 characters)').max(200, 'is too long (maximum is 200 characters)'),
});

/** A user the command line could not make, with the reason in a sentence for the terminal. */
export class UserRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserRefusedError';
  }
}

/** Makes a user of the account `prefix` who signs in to the back office with `login` (or `email`) and `password`. */
export async function createAccountUser(db: Database, input: { prefix: string; login: string; email: string; password: string }): Promise<{ login: string; email: string }> {
  const parsed = newUser.safeParse(input);
  if (!parsed.success) {
    throw new UserRefusedError(parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; '));
  }
  const { login, email, password } = parsed.data;
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const accountId = await accountIdByPrefix(tx, input.prefix);
    // The service makes its own account (`demo`) at its first start.
    if (accountId === undefined) throw new UserRefusedError(`there is no account "${input.prefix}": start the service once first, or name another with --account`);
    if (await loginTaken(tx, login, email)) throw new UserRefusedError(`the login "${login}" or the e-mail "${email}" is taken`);
    const user = await insertAccountUser(tx, accountId, { login, email, passwordHash });
    return { login: user.login, email: user.email };
  });
}

/** The demo's owner. Its password is a demo's, known to whoever reads the start's output: never on a real account. */
export const DEMO_OWNER = { login: 'owner', email: 'owner@demo-studio.example', password: 'invoicekit-demo' } as const;

/**
 * Gives a seeded demo account its owner when it has no user yet, and answers the owner's sign-in
 * while its password is still the demo's (`undefined` once it was changed, or the owner is gone).
 */
export async function ensureDemoOwner(db: Database, prefix: string): Promise<{ login: string; password: string } | undefined> {
  const accountId = await accountIdByPrefix(db, prefix);
  if (accountId === undefined) return undefined;
  if ((await accountUserCount(db, accountId)) === 0 && !(await loginTaken(db, DEMO_OWNER.login, DEMO_OWNER.email))) {
    await insertAccountUser(db, accountId, { login: DEMO_OWNER.login, email: DEMO_OWNER.email, passwordHash: await hashPassword(DEMO_OWNER.password) });
  }
  const owner = await accountUserByLogin(db, accountId, DEMO_OWNER.login);
  return owner && (await verifyPassword(DEMO_OWNER.password, owner.password_hash)) ? { login: DEMO_OWNER.login, password: DEMO_OWNER.password } : undefined;
}
