import { Hono } from 'hono';
import { readsBody, type ServiceEnv } from '../http.js';
import { type Dispatch, mountAdminApi } from './dispatch.js';
import { mountAdminSession } from './session.js';
import { mountAdminAssets, mountAdminShell } from './shell.js';

/** A sign-in's body: a login and a password, and nothing large. */
const SESSION_BODY = 16 * 1024;

/**
 * The seller's back office under `/admin`: its session, the API as the session's account, the
 * script, and the page for every other path. `dispatch` answers an API request in this process.
 */
export function createAdminApp(dispatch: Dispatch): Hono<ServiceEnv> {
  const admin = new Hono<ServiceEnv>();
  const session = new Hono<ServiceEnv>();
  session.use(readsBody(SESSION_BODY));
  mountAdminSession(session);
  const api = new Hono<ServiceEnv>();
  mountAdminApi(api, dispatch);
  const assets = new Hono<ServiceEnv>();
  mountAdminAssets(assets);

  admin.route('/session', session);
  admin.route('/api', api);
  admin.route('/assets', assets);
  mountAdminShell(admin);
  return admin;
}
