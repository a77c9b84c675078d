import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';

export interface FollowServiceWritesOptions {
  /** The service's base URL, as `serviceUrl`. */
  serviceUrl: string;
  apiToken: string;
  /** Waits before following again after the feed ended or failed: doubles from the first to the last. Default 1 s to 30 s. */
  retryMs?: readonly [first: number, last: number];
  /** A service without the feed (404, as the hosted one answers) is asked again after this long. Default 10 minutes. */
  absentRetryMs?: number;
  /** A feed silent this long is taken as dead and opened again. Default 40 s (the service pings every 15 s). */
  silentMs?: number;
}

export interface ServiceWriteFeed {
  /**
   * The service's write count as last heard (`<epoch>.<count>`), read once every event that reached
   * this process before the call has been read; `undefined` while the feed is not open.
   */
  writeCount(): Promise<string | undefined>;
  /** Resolves once the first count arrived (true) or the first try failed (false). */
  readonly ready: Promise<boolean>;
  close(): void;
}

/**
 * Follows the service's write count (`GET /changes`, server-sent events) for a BFF in another
 * process: `createBff({ serviceWriteCount: feed.writeCount })`. While the count stands still, a
 * first page the BFF holds is answered without a round trip to the service.
 *
 * Why it is never stale on one host: the service writes the new count to this socket in the same
 * turn as the write moves it, before the write's own answer leaves. On loopback the bytes are in
 * this process's socket by then, so before anyone told of the write can ask the BFF anything. A
 * request's handler reads the count only after the event loop's next check phase (`setImmediate`),
 * by which time every socket that was readable when the request was read has been read too.
 * Across hosts two connections give no such order, so `startBff` follows only a loopback service.
 */
export function followServiceWrites(options: FollowServiceWritesOptions): ServiceWriteFeed {
  const url = new URL(`${options.serviceUrl.replace(/\/+$/, '')}/changes`);
  const [firstRetry, lastRetry] = options.retryMs ?? [1000, 30_000];
  const absentRetry = options.absentRetryMs ?? 10 * 60_000;
  const silentMs = options.silentMs ?? 40_000;
  let current: string | undefined;
  let request: ClientRequest | undefined;
  let retryIn = firstRetry;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let settleReady: (heard: boolean) => void = () => undefined;
  const ready = new Promise<boolean>((resolve) => (settleReady = resolve));

  const later = (ms: number) => {
    current = undefined;
    request = undefined;
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(open, ms);
    timer.unref();
  };

  function open(): void {
    if (closed) return;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // A connection of its own (no agent): it is held for as long as the feed, and never reused.
    const req = send(url, { agent: false, headers: { authorization: `Bearer ${options.apiToken}`, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('text/event-stream')) {
        res.resume();
        settleReady(false);
        return later(res.statusCode === 404 ? absentRetry : backOff());
      }
      retryIn = firstRetry;
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const event = pending.slice(0, end);
          pending = pending.slice(end + 2);
          for (const line of event.split('\n')) {
            if (line.startsWith('data: ')) {
              current = line.slice(6);
              settleReady(true);
            }
          }
        }
        // A stream that never ends an event is not a feed.
        if (pending.length > 1024) req.destroy();
      });
      res.on('close', () => {
        if (request === req) later(backOff());
      });
    });
    request = req;
    // A socket silent that long (the service pings every 15 s) is taken as dead and opened again.
    req.setTimeout(silentMs, () => req.destroy());
    // Following keeps a process alive only until its first answer (so `await feed.ready` settles),
    // never after: the server it serves does that.
    req.on('socket', (socket) => void ready.then(() => socket.unref()));
    req.on('error', () => {
      settleReady(false);
      if (request === req) later(backOff());
    });
    req.end();
  }

  const backOff = () => {
    const wait = retryIn;
    retryIn = Math.min(lastRetry, retryIn * 2);
    return wait;
  };

  open();
  return {
    async writeCount() {
      await new Promise((resolve) => setImmediate(resolve));
      return current;
    },
    ready,
    close() {
      closed = true;
      clearTimeout(timer);
      current = undefined;
      const req = request;
      request = undefined;
      req?.destroy();
    },
  };
}

/** Whether `serviceUrl` names this host's loopback (`localhost`, 127.0.0.0/8, `::1`). */
export function isLoopbackUrl(serviceUrl: string): boolean {
  const host = new URL(serviceUrl).hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
