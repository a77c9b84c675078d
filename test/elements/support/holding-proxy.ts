import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through proxy in front of a real BFF that can hold the answer to one chosen request, so a
 * browser test proves that a late answer changes nothing without sleeping: hold it, assert, release
 * it, see it written (or see that the browser had already given up the request), assert again. The
 * real BFF still answers every request at once; only the moment its answer reaches the browser is
 * the test's to choose.
 */
export interface HoldingProxy {
  url: string;
  /** Holds the answer to the next request whose method and path (with its query) match; returns its id. */
  hold(method: string, path: RegExp): number;
  /** Resolves to the held request's path (with its query) once it has come and the BFF's answer to it is in hand. */
  arrived(id: number): Promise<string>;
  /**
   * Lets the held answer go. `delivered`: it was written to the browser's connection in full.
   * `abandoned`: the browser had closed the request (aborted it) before, so it can never land.
   */
  release(id: number): Promise<HoldOutcome>;
  close(): Promise<void>;
}

export type HoldOutcome = 'delivered' | 'abandoned';

interface Hold {
  method: string;
  path: RegExp;
  taken: boolean;
  /** The path and query of the request that took the hold. */
  url?: string;
  arrived: Promise<void>;
  arrive(): void;
  released: Promise<void>;
  release(): void;
  outcome?: Promise<HoldOutcome>;
}

/** Connection-level headers, which belong to one hop and are set again by the next. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer']);

function forwarded(headers: IncomingHttpHeaders, drop: string[] = []): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !drop.includes(name)));
}

function signal(): [Promise<void>, () => void] {
  let resolve!: () => void;
  const promise = new Promise<void>((yes) => (resolve = yes));
  return [promise, resolve];
}

export async function startHoldingProxy(upstream: string): Promise<HoldingProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const holds = new Map<number, Hold>();
  let lastId = 0;

  const take = (req: IncomingMessage): Hold | undefined => {
    for (const each of holds.values()) {
      if (!each.taken && each.method === req.method && each.path.test(req.url ?? '')) {
        each.taken = true;
        each.url = req.url;
        return each;
      }
    }
    return undefined;
  };

  const server = createServer((req, res) => {
    const held = take(req);
    const outgoing = request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: forwarded(req.headers, ['host']), agent },
      (answer) => {
        if (!held) {
          res.writeHead(answer.statusCode ?? 502, forwarded(answer.headers));
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          held.outcome = deliverWhenReleased(held, res, answer, Buffer.concat(chunks));
          held.arrive();
        });
      },
    );
    outgoing.on('error', () => res.destroy());
    req.pipe(outgoing);
  });

  async function deliverWhenReleased(held: Hold, res: ServerResponse, answer: IncomingMessage, body: Buffer): Promise<HoldOutcome> {
    await held.released;
    // The browser closes its connection when it aborts a request: nothing written now could reach it.
    if (res.destroyed || res.socket?.destroyed !== false) return 'abandoned';
    res.writeHead(answer.statusCode ?? 502, { ...forwarded(answer.headers, ['content-length']), 'content-length': String(body.length) });
    return new Promise((resolve) => {
      // A connection the browser drops while the answer is written ends without 'finish'.
      res.once('close', () => resolve(res.writableFinished ? 'delivered' : 'abandoned'));
      res.end(body, () => resolve('delivered'));
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const find = (id: number): Hold => {
    const found = holds.get(id);
    if (!found) throw new Error(`No hold ${id}.`);
    return found;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    hold(method, path) {
      const [arrived, arrive] = signal();
      const [released, release] = signal();
      lastId += 1;
      holds.set(lastId, { method: method.toUpperCase(), path, taken: false, arrived, arrive, released, release });
      return lastId;
    },
    arrived: async (id) => {
      const held = find(id);
      await held.arrived;
      return held.url!;
    },
    async release(id) {
      const held = find(id);
      if (!held.taken) throw new Error(`The request held by hold ${id} never came.`);
      held.release();
      await held.arrived;
      const outcome = await held.outcome!;
      holds.delete(id);
      return outcome;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const each of holds.values()) each.release();
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

/**
 * The control routes a test page calls (through the test server) to drive a proxy: `hold?method=&path=`
 * (a regular expression) answers `{ id }`, `held/<id>/arrived` answers `{ url }` (the proxy's address and the request's path) once the held request came,
 * `held/<id>/release` answers `{ outcome }` once the held answer was written or found abandoned.
 * Undefined for any other route.
 */
export async function holdControl(proxy: HoldingProxy, route: string, query: Record<string, string>): Promise<unknown> {
  if (route === 'hold') return { id: proxy.hold(query.method ?? 'GET', new RegExp(query.path ?? '')) };
  const [, id, action] = /^held\/(\d+)\/(arrived|release)$/.exec(route) ?? [];
  if (action === 'arrived') return { url: proxy.url + (await proxy.arrived(Number(id))) };
  if (action === 'release') return { outcome: await proxy.release(Number(id)) };
  return undefined;
}
