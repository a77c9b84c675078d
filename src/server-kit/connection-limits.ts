/**
 * How long a client may take to send a request, how long an idle connection stays open and how
 * many connections a server holds at once: the same rules for the service and the BFF, so a body
 * that trickles in a byte at a time, or a crowd of idle sockets, cannot hold either one. Plain data
 * and a structural server type: nothing here imports Node, so the browser client is untouched.
 */
export interface ConnectionLimits {
  /** Longest time to receive a whole request, headers and body; then 408 and the socket closes. */
  requestTimeoutMs: number;
  /** Longest time to receive a request's headers. */
  headersTimeoutMs: number;
  /** How long a keep-alive connection may sit idle between requests. */
  keepAliveTimeoutMs: number;
  /** Connections held at once; further ones are closed as they arrive. */
  maxConnections: number;
}

export const DEFAULT_CONNECTION_LIMITS: Readonly<ConnectionLimits> = {
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 20_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1024,
};

/** The options of `http.createServer` that carry the limits (the timeouts are checked at least once a second). */
export function connectionServerOptions(limits: ConnectionLimits) {
  const requestTimeout = Math.max(1, limits.requestTimeoutMs);
  return {
    requestTimeout,
    headersTimeout: Math.min(Math.max(1, limits.headersTimeoutMs), requestTimeout),
    keepAliveTimeout: Math.max(1, limits.keepAliveTimeoutMs),
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(requestTimeout / 4))),
  };
}

/** Sets the connection cap on a listening server (`net.Server#maxConnections`). */
export function capConnections(server: { maxConnections: number }, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
}

export function connectionLimits(overrides: Partial<ConnectionLimits> = {}): ConnectionLimits {
  return { ...DEFAULT_CONNECTION_LIMITS, ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) };
}
