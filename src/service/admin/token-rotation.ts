import type { Hono } from 'hono';
import { replaceApiToken } from '../data/account-tokens.js';
import { respond, type ServiceEnv } from '../http.js';
import { randomToken } from '../passwords.js';

/**
 * `POST /account/api_token/rotate`: a new api_token for the account, answered this once. The old
 * one is a 401 from the answer on; integrations that hold it (a BFF, a shop plugin) need the new one.
 */
export function mountTokenRotation(app: Hono<ServiceEnv>): void {
  app.post('/rotate', async (c) => {
    const token = randomToken();
    await replaceApiToken(c.get('db'), c.get('account').id, token);
    c.header('cache-control', 'no-store');
    return respond(c, { api_token: token }, { root: 'account' });
  });
}
