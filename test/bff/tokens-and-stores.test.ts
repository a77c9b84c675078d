import { describe, expect, it } from 'vitest';
import { issuePortalToken, MemoryCacheStore, MemoryIdempotencyStore, MemoryRateLimitStore, PortalTokenError, portalSecretKey, verifyPortalToken } from '../../src/bff/index.js';
import { PORTAL_SECRET } from './support.js';

const key = portalSecretKey(PORTAL_SECRET);

/** A clock that stands still until the test moves it. */
function movableClock() {
  const start = Date.UTC(2026, 0, 1);
  let now = start;
  return { start, now: () => now, move: (ms: number) => void (now += ms) };
}

describe('issuePortalToken', () => {
  it('mints a token that verifies to the client and its scopes', async () => {
    const token = await issuePortalToken({ clientId: 42, scopes: ['invoices:read'], ttlSeconds: 120 }, PORTAL_SECRET);
    const session = await verifyPortalToken(token, key);
    expect(session.clientId).toBe(42);
    expect([...session.scopes]).toEqual(['invoices:read']);
    expect(session.expiresAt - Math.floor(Date.now() / 1000)).toBeGreaterThan(100);
    expect(session.expiresAt - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(120);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ sub: '42', iss: 'invoicekit-bff', aud: 'invoicekit-portal', scope: 'invoices:read' });
  });

  it('refuses bad requests and weak secrets', async () => {
    await expect(issuePortalToken({ clientId: 0 }, PORTAL_SECRET)).rejects.toThrow('clientId');
    await expect(issuePortalToken({ clientId: '12; drop' }, PORTAL_SECRET)).rejects.toThrow('clientId');
    await expect(issuePortalToken({ clientId: 1, ttlSeconds: 0 }, PORTAL_SECRET)).rejects.toThrow('ttlSeconds');
    await expect(issuePortalToken({ clientId: 1, ttlSeconds: 90_000 }, PORTAL_SECRET)).rejects.toThrow('ttlSeconds');
    await expect(issuePortalToken({ clientId: 1, scopes: ['admin' as 'client:read'] }, PORTAL_SECRET)).rejects.toThrow('scope');
    await expect(issuePortalToken({ clientId: 1 }, 'short')).rejects.toThrow('32 bytes');
  });

  it('tells an expired token from a forged one, also once it has been verified before', async () => {
    // A minute's token: one second's would expire between issue and first use across a second's boundary.
    const token = await issuePortalToken({ clientId: 7, ttlSeconds: 60 }, PORTAL_SECRET);
    // Verified once, the token is remembered: the expiry must still be checked on each use.
    expect((await verifyPortalToken(token, key)).clientId).toBe(7);
    const later = { now: () => Date.now() + 62_000 };
    await expect(verifyPortalToken(token, key, later)).rejects.toMatchObject({ reason: 'expired' });
    await expect(verifyPortalToken(token, key, later)).rejects.toMatchObject({ reason: 'expired' });
    const other = portalSecretKey('x'.repeat(40));
    const valid = await issuePortalToken({ clientId: 7 }, PORTAL_SECRET);
    expect((await verifyPortalToken(valid, key)).clientId).toBe(7);
    // What one secret verified says nothing under another, and a changed signature is a new token.
    await expect(verifyPortalToken(valid, other)).rejects.toBeInstanceOf(PortalTokenError);
    const tampered = `${valid.slice(0, -2)}${valid.endsWith('AA') ? 'BB' : 'AA'}`;
    await expect(verifyPortalToken(tampered, key)).rejects.toMatchObject({ reason: 'invalid' });
    await expect(verifyPortalToken('a.b.c', key)).rejects.toMatchObject({ reason: 'invalid' });
  });

  it('dates a token from the issue time it is given: one issued an hour ago for a minute has expired', async () => {
    const clock = movableClock();
    const anHourAgo = new Date(clock.start - 3_600_000);
    const old = await issuePortalToken({ clientId: 9, ttlSeconds: 60, issuedAt: anHourAgo }, PORTAL_SECRET);
    const claims = JSON.parse(Buffer.from(old.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ iat: anHourAgo.getTime() / 1000, exp: anHourAgo.getTime() / 1000 + 60 });
    await expect(verifyPortalToken(old, key, clock)).rejects.toMatchObject({ reason: 'expired' });
    // Issued at the clock's now, the same request is good for its minute and no longer.
    const fresh = await issuePortalToken({ clientId: 9, ttlSeconds: 60, issuedAt: new Date(clock.now()) }, PORTAL_SECRET);
    expect(await verifyPortalToken(fresh, key, clock)).toMatchObject({ clientId: 9, expiresAt: clock.start / 1000 + 60 });
    clock.move(60_000);
    await expect(verifyPortalToken(fresh, key, clock)).rejects.toMatchObject({ reason: 'expired' });
    // Without one, a token is issued now.
    const now = await issuePortalToken({ clientId: 9, ttlSeconds: 60 }, PORTAL_SECRET);
    expect((await verifyPortalToken(now, key)).clientId).toBe(9);
    await expect(issuePortalToken({ clientId: 9, issuedAt: new Date(Number.NaN) }, PORTAL_SECRET)).rejects.toThrow('issuedAt');
  });
});

describe('MemoryIdempotencyStore', () => {
  it('lets one request claim a key and the others wait for its answer', async () => {
    const store = new MemoryIdempotencyStore();
    expect(await store.claim('k', 'f1')).toEqual({ state: 'claimed' });
    const waiter = await store.claim('k', 'f1');
    expect(waiter.state).toBe('in-flight');
    await store.complete('k', { status: 201, body: { ok: true } });
    expect(await (waiter as { settled: Promise<unknown> }).settled).toEqual({ status: 201, body: { ok: true } });
    expect(await store.claim('k', 'f2')).toEqual({ state: 'done', fingerprint: 'f1', answer: { status: 201, body: { ok: true } } });
  });

  it('gives a released key to the next request', async () => {
    const store = new MemoryIdempotencyStore();
    await store.claim('k', 'f');
    const waiter = (await store.claim('k', 'f')) as { settled: Promise<unknown> };
    await store.release('k');
    expect(await waiter.settled).toBeUndefined();
    expect(await store.claim('k', 'f')).toEqual({ state: 'claimed' });
  });

  it('forgets answers after the retention time', async () => {
    const clock = movableClock();
    const store = new MemoryIdempotencyStore({ retentionMs: 20, now: clock.now });
    await store.claim('k', 'f');
    await store.complete('k', { status: 201, body: {} });
    clock.move(19);
    expect(await store.claim('k', 'g')).toMatchObject({ state: 'done', fingerprint: 'f' });
    clock.move(21);
    expect(await store.claim('k', 'g')).toEqual({ state: 'claimed' });
  });
});

describe('MemoryRateLimitStore', () => {
  it('counts per key within a window and starts over after it', async () => {
    const clock = movableClock();
    const store = new MemoryRateLimitStore({ now: clock.now });
    expect((await store.hit('a', 50)).count).toBe(1);
    expect((await store.hit('a', 50)).count).toBe(2);
    expect((await store.hit('b', 50)).count).toBe(1);
    clock.move(49);
    expect(await store.hit('a', 50)).toEqual({ count: 3, resetAt: clock.start + 50 });
    clock.move(21);
    expect((await store.hit('a', 50)).count).toBe(1);
  });
});

describe('MemoryCacheStore', () => {
  it('keeps a value for its time, forgets it after, and keeps nothing for a time of 0', async () => {
    const clock = movableClock();
    const store = new MemoryCacheStore({ now: clock.now });
    await store.set('product:a', { id: 1 }, 50);
    await store.set('product:miss', null, 50);
    await store.set('never', 'x', 0);
    expect(await store.get('product:a')).toEqual({ id: 1 });
    expect(await store.get('product:miss')).toBeNull();
    expect(await store.get('never')).toBeUndefined();
    clock.move(49);
    expect(await store.get('product:a')).toEqual({ id: 1 });
    clock.move(21);
    expect(await store.get('product:a')).toBeUndefined();
  });

  it('drops the oldest entry when full', async () => {
    const store = new MemoryCacheStore({ maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) await store.set(key, key, 60_000);
    expect([await store.get('a'), await store.get('b'), await store.get('c')]).toEqual([undefined, 'b', 'c']);
    await store.delete('b');
    expect(await store.get('b')).toBeUndefined();
  });
});
