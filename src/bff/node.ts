import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { capConnections, type ConnectionLimits, connectionLimits, connectionServerOptions } from '../server-kit/connection-limits.js';
import { createBff, type BffOptions } from './app.js';
import type { FollowServiceWritesOptions, ServiceWriteFeed } from './node-write-feed.js';

export interface StartBffOptions extends BffOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Request, header and idle timeouts and the connection cap (see `docs/security.md`). */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * Follows the service's write count (`followServiceWrites`) so that held first pages are answered
   * without a round trip while nothing is written. Default: when `serviceUrl` is on this host's
   * loopback and no `serviceWriteCount` or `client` is given. A service without the feed (the hosted
   * one) is simply asked each time.
   */
  followServiceWrites?: boolean;
}

export interface RunningBff {
  /** `http://127.0.0.1:<port>`, without the base path. */
  url: string;
  port: number;
  /**
   * Stops: `/readyz` fails at once, no new connection is accepted, requests in progress get up to
   * `graceMs` (default 0) to finish.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Runs the BFF alone on Node's `http`, for the CLI, the demo and tests. */
export async function startBff(options: StartBffOptions): Promise<RunningBff> {
  const { port = 0, host = '127.0.0.1', connectionLimits: limitOverrides, followServiceWrites: follow, ...bffOptions } = options;
  const limits = connectionLimits(limitOverrides);
  let draining = false;
  const outer = bffOptions.draining;
  // Loaded here, not at the top, so importing the package on an edge runtime never touches node:http.
  const { keepAliveFetch } = await import('./node-fetch.js');
  const feeds = await import('./node-write-feed.js');
  // The service calls go over kept Node connections unless the host brought its own client or fetch.
  const ownFetch = bffOptions.client || bffOptions.serviceFetch ? undefined : keepAliveFetch();
  const { serviceUrl, apiToken } = bffOptions;
  const feed =
    !bffOptions.serviceWriteCount && !bffOptions.client && serviceUrl && apiToken && (follow ?? feeds.isLoopbackUrl(serviceUrl))
      ? feeds.followServiceWrites({ serviceUrl, apiToken })
      : undefined;
  const app = createBff({
    ...bffOptions,
    ...(ownFetch ? { serviceFetch: ownFetch } : {}),
    ...(feed ? { serviceWriteCount: feed.writeCount } : {}),
    draining: () => draining || Boolean(outer?.()),
  });
  const { createServer } = await import('node:http');
  const { getRequestListener } = await import('@hono/node-server');
  const server: Server = createServer(connectionServerOptions(limits), getRequestListener(app.fetch));
  capConnections(server, limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    // Nothing of a BFF that could not listen stays open.
    ownFetch?.close();
    feed?.close();
    throw error;
  });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    close: ({ graceMs = 0 } = {}) =>
      new Promise<void>((resolve, reject) => {
        draining = true;
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close((error) => {
          clearTimeout(force);
          ownFetch?.close();
          feed?.close();
          if (error) reject(error);
          else resolve();
        });
        if (graceMs > 0) server.closeIdleConnections();
        else server.closeAllConnections();
      }),
  };
}

/**
 * Follows the service's write count, for a BFF made with `createBff` inside a Node server on the
 * service's host: `createBff({ …, serviceWriteCount: (await followServiceWrites({ serviceUrl, apiToken })).writeCount })`.
 * `startBff` does it by itself. Loaded on first use, so importing the package on an edge runtime never
 * touches `node:http`.
 */
export async function followServiceWrites(options: FollowServiceWritesOptions): Promise<ServiceWriteFeed> {
  return (await import('./node-write-feed.js')).followServiceWrites(options);
}
