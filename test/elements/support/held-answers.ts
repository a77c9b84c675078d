import { waitUntil } from '@open-wc/testing';

/**
 * The browser's side of the holding proxies in front of the test BFFs (support/holding-proxy.ts):
 * `info.heldBff` of the portal and shop fixtures is that BFF behind a proxy, and a test holds the
 * answer to one request there, asserts, releases it, and asserts again once it has demonstrably
 * landed or been given up. No sleeping: the test, not the clock, decides when the answer comes.
 */
export interface HeldAnswer {
  /** Resolves once the request has reached the server and its real answer is held there. */
  arrived(): Promise<void>;
  /**
   * Lets the answer go and resolves once the browser is done with the request, as its own resource
   * timing tells (Chromium records an aborted request too, with status 0), and the tasks after that
   * have run: `delivered` when the browser read the answer in full, `abandoned` when it had aborted
   * the request, so the answer can never land.
   */
  release(): Promise<'delivered' | 'abandoned'>;
}

async function control<T>(fixture: 'portal' | 'shop', route: string): Promise<T> {
  const response = await fetch(`/__${fixture}/${route}`, { cache: 'no-store' });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<T>;
}

/** A task, not a wait for time: lets the promise jobs queued by the last network event run. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

const entries = (url: string) => performance.getEntriesByType('resource').filter((entry): entry is PerformanceResourceTiming => entry.name === url);

/**
 * Holds the answer to the next `method` request to the fixture's `heldBff` whose path and query
 * match `path`. Call `arrived` before the action that should make the answer stale: the request is
 * then surely in flight, and no other request to the same URL may start until `release`.
 */
export async function holdNextAnswer(fixture: 'portal' | 'shop', method: string, path: RegExp): Promise<HeldAnswer> {
  const query = new URLSearchParams({ method, path: path.source });
  const { id } = await control<{ id: number }>(fixture, `hold?${query}`);
  let held: { url: string; before: number } | undefined;
  const arrived = async () => {
    const { url } = await control<{ url: string }>(fixture, `held/${id}/arrived`);
    // The held request has no entry yet: the browser records one when it is done with a request.
    held ??= { url, before: entries(url).length };
  };
  return {
    arrived,
    async release() {
      if (!held) throw new Error('Wait for the held request to arrive before releasing it.');
      const { url, before } = held;
      await control(fixture, `held/${id}/release`);
      await waitUntil(() => entries(url).length > before, `the browser never finished the held request to ${url}`, { timeout: 10_000 });
      await nextTask();
      await nextTask();
      return entries(url)[before]!.responseStatus === 0 ? 'abandoned' : 'delivered';
    },
  };
}
