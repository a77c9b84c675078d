import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { accountWithUser, postSignIn } from './support/session.js';

/**
 * The session cookie is `Secure` where the back office is served over https: here behind one trusted
 * proxy that says so in `X-Forwarded-Proto`, and never on the word of an untrusted one.
 */
let behindProxy: TestService;

beforeAll(async () => {
  behindProxy = await startTestService({ trustProxy: 1 });
  await accountWithUser(behindProxy, { prefix: 'kwiaciarnia', login: 'anna', email: 'anna@kwiaciarnia.example', password: 'róże i tulipany' });
}, 60_000);
afterAll(() => behindProxy?.stop());

describe('the session cookie over https', () => {
  it('is Secure when the trusted proxy took the request over https, and not when it took it over http', async () => {
    const https = await postSignIn(behindProxy, 'anna', 'róże i tulipany', { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' });
    expect(https.status).toBe(200);
    expect(https.headers.get('set-cookie')).toMatch(/^ik_admin=[A-Za-z0-9_-]{43}; Path=\/admin; HttpOnly; SameSite=Strict; Secure$/);
    const http = await postSignIn(behindProxy, 'anna', 'róże i tulipany', { 'x-forwarded-proto': 'http', 'x-forwarded-for': '203.0.113.7' });
    expect(http.headers.get('set-cookie')).toMatch(/^ik_admin=[A-Za-z0-9_-]{43}; Path=\/admin; HttpOnly; SameSite=Strict$/);
  });
});
