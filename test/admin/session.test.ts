import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { accountWithUser, browserOf, postSignIn, readReply, sessionCookieOf, signIn } from './support/session.js';

/**
 * The back office's sign-in (`/admin/session`): the same users and password check as `login.json`,
 * under its limits; a session held in an HttpOnly, SameSite=Strict cookie; writes only with the
 * session's CSRF token; signing out ends the session on the server.
 */
let service: TestService;
let shop: { id: number; prefix: string; apiToken: string };

beforeAll(async () => {
  service = await startTestService();
  shop = await accountWithUser(service, { prefix: 'kwiaciarnia', login: 'anna', email: 'Anna@Kwiaciarnia.example', password: 'róże i tulipany', company: 'Kwiaciarnia Anna' });
}, 60_000);
afterAll(() => service?.stop());

const COOKIE = /^ik_admin=([A-Za-z0-9_-]{43}); Path=\/admin; HttpOnly; SameSite=Strict$/;

describe('signing in', () => {
  it('starts a session by login and answers who and which account, with a CSRF token', async () => {
    const response = await postSignIn(service, 'anna', 'róże i tulipany');
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(COOKIE);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { csrf: string };
    expect(body).toEqual({
      user: { login: 'anna', email: 'Anna@Kwiaciarnia.example' },
      account: { prefix: 'kwiaciarnia', name: 'Kwiaciarnia Anna' },
      csrf: body.csrf,
    });
    expect(body.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(body)).not.toContain(shop.apiToken);

    const again = await readReply(await fetch(`${service.url}/admin/session`, { headers: { cookie: sessionCookieOf(response) } }));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(body);
  });

  it('is not Secure on the word of a proxy the service does not trust', async () => {
    const response = await postSignIn(service, 'anna', 'róże i tulipany', { 'x-forwarded-proto': 'https' });
    expect(response.headers.get('set-cookie')).toMatch(COOKIE);
  });

  it('takes the e-mail in any letter case instead of the login', async () => {
    const response = await postSignIn(service, 'anna@kwiaciarnia.EXAMPLE', 'róże i tulipany');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { user: unknown }).user).toEqual({ login: 'anna', email: 'Anna@Kwiaciarnia.example' });
  });

  it('refuses a wrong password and an unknown login alike, and starts no session', async () => {
    for (const [login, password] of [['anna', 'tulipany'], ['nobody', 'róże i tulipany']] as const) {
      const response = await postSignIn(service, login, password);
      expect(response.status).toBe(401);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await response.json()).toEqual({ code: 'error', message: 'Wrong login or password' });
    }
  });

  it('names a missing field, and takes JSON only', async () => {
    const blank = await readReply(await fetch(`${service.url}/admin/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"login":"anna"}' }));
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual({ code: 'error', message: { password: ["can't be blank"] } });
    // A form another site could post on its own: refused, so no page can sign a browser in.
    const form = await readReply(
      await fetch(`${service.url}/admin/session`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'login=anna&password=r%C3%B3%C5%BCe+i+tulipany' }),
    );
    expect(form.status).toBe(415);
    expect(form.body).toEqual({ code: 'error', message: 'Send the sign-in as application/json' });
    expect(form.headers.get('set-cookie')).toBeNull();
  });

  it('answers hostile bodies with a 4xx and the reference\'s error body, never a 500', async () => {
    const post = async (body: string) => {
      const reply = await readReply(await fetch(`${service.url}/admin/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
      return [reply.status, reply.body] as const;
    };
    expect(await post('[]')).toEqual([400, { code: 'error', message: 'The request body must be a JSON object' }]);
    expect(await post('{"login":')).toEqual([400, { code: 'error', message: 'The request body is not valid JSON' }]);
    expect(await post('{"login":{"$ne":null},"password":["x"]}')).toEqual([422, { code: 'error', message: { login: ['must be text'], password: ['must be text'] } }]);
    expect((await post('{"__proto__":{"admin":true},"login":"anna","password":"x"}'))[0]).toBe(400);
    expect((await post(JSON.stringify({ login: 'anna', password: 'x'.repeat(20_000) })))[0]).toBe(413);
    expect(await post(JSON.stringify({ login: 'anna', password: 'x'.repeat(1025) }))).toEqual([422, { code: 'error', message: { password: ['is too long (maximum is 1024 characters)'] } }]);
  });

  it('answers 401 without a session, with a made-up one, and with the api_token in its place', async () => {
    for (const cookie of [undefined, `ik_admin=${'a'.repeat(43)}`, `ik_admin=${shop.apiToken}`]) {
      const reply = await readReply(await fetch(`${service.url}/admin/session`, { headers: cookie ? { cookie } : {} }));
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ code: 'error', message: 'Sign in to the back office first' });
    }
    const bearer = await readReply(await fetch(`${service.url}/admin/api/products.json`, { headers: { authorization: `Bearer ${shop.apiToken}` } }));
    expect(bearer.status).toBe(401);
  });
});

describe('signing out', () => {
  it('needs the CSRF token, then ends the session on the server', async () => {
    const browser = await signIn(service, 'anna', 'róże i tulipany');
    const forged = await browser.call('DELETE', '/admin/session', undefined, { csrf: null });
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ code: 'error', message: "The request lacks this session's X-CSRF-Token" });
    expect((await browser.call('GET', '/admin/session')).status).toBe(200);

    const out = await browser.call('DELETE', '/admin/session');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toBe('ik_admin=; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=0');
    // The cookie kept by a copy of the browser opens nothing any more.
    expect((await browser.call('GET', '/admin/session')).status).toBe(401);
    expect((await browser.call('GET', '/admin/api/products.json')).status).toBe(401);
    const id = /^ik_admin=(.*)$/.exec(browser.cookie)![1]!;
    const rows = await service.db.query('select 1 from admin_sessions where id_hash = $1', [createHash('sha256').update(id).digest('hex')]);
    expect(rows).toEqual([]);
  });

  it('leaves the user\'s other sessions alone', async () => {
    const phone = await signIn(service, 'anna', 'róże i tulipany');
    const laptop = await signIn(service, 'anna', 'róże i tulipany');
    expect(phone.csrf).not.toBe(laptop.csrf);
    expect((await phone.call('DELETE', '/admin/session')).status).toBe(204);
    expect((await laptop.call('GET', '/admin/session')).status).toBe(200);
    // One session's CSRF token is no good for another's writes.
    const crossed = browserOf(service, laptop.cookie, phone.csrf);
    expect((await crossed.call('POST', '/admin/api/products.json', { product: { name: 'Bukiet', price_gross: '80.00', tax: 8 } })).status).toBe(403);
  });
});

describe('a session\'s time', () => {
  const expiryOf = async (browser: { cookie: string }) => {
    const id = /^ik_admin=(.*)$/.exec(browser.cookie)![1]!;
    const hash = createHash('sha256').update(id).digest('hex');
    const rows = await service.db.query<{ idle: number; expires_at: Date }>(
      `select round(extract(epoch from expires_at - now()) / 60)::integer as idle, expires_at from admin_sessions where id_hash = $1`,
      [hash],
    );
    return { hash, ...rows[0]! };
  };

  it('lasts 8 idle hours, started again by use but written at most every 5 minutes, and ends when they pass', async () => {
    const browser = await signIn(service, 'anna', 'róże i tulipany');
    const fresh = await expiryOf(browser);
    expect(fresh.idle).toBe(480);
    expect((await browser.call('GET', '/admin/session')).status).toBe(200);
    // Used again at once: nothing is written.
    expect((await expiryOf(browser)).expires_at).toEqual(fresh.expires_at);

    await service.db.query(`update admin_sessions set expires_at = now() + interval '1 hour' where id_hash = $1`, [fresh.hash]);
    expect((await browser.call('GET', '/admin/session')).status).toBe(200);
    expect((await expiryOf(browser)).idle).toBe(480);

    await service.db.query(`update admin_sessions set expires_at = now() - interval '1 second' where id_hash = $1`, [fresh.hash]);
    expect((await browser.call('GET', '/admin/session')).status).toBe(401);
  });

  it('ends 7 days after it began, however much it is used', async () => {
    const browser = await signIn(service, 'anna', 'róże i tulipany');
    const { hash } = await expiryOf(browser);
    await service.db.query(`update admin_sessions set created_at = now() - interval '7 days' + interval '30 minutes', expires_at = now() + interval '1 minute' where id_hash = $1`, [hash]);
    expect((await browser.call('GET', '/admin/session')).status).toBe(200);
    expect((await expiryOf(browser)).idle).toBe(30);
  });
});

describe('failed sign-ins', () => {
  it('are limited per user as login.json limits them: the eleventh try waits, even with the right password', async () => {
    await accountWithUser(service, { prefix: 'piekarnia', login: 'piotr', email: 'piotr@piekarnia.example', password: 'chleb na zakwasie' });
    for (let attempt = 1; attempt <= 10; attempt += 1) expect((await postSignIn(service, 'piotr', `guess ${attempt}`)).status).toBe(401);
    const locked = await postSignIn(service, 'PIOTR@piekarnia.example', 'chleb na zakwasie');
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await locked.json()) as { message: string }).message).toMatch(/^Too many failed logins\. Try again in \d+ seconds\.$/);
    // login.json counts the same failures: it is one limit.
    const integration = await fetch(`${service.url}/login.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'piotr', password: 'chleb na zakwasie', integration_token: service.integrationToken }),
    });
    expect(integration.status).toBe(429);
  });
});
