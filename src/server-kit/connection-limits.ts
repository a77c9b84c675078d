/**
 * How long a client may take to send a request, how long an idle connection stays open and how
 * many connections a server holds at once, in all and per client address: the same rules for the
 * service and the BFF, so a body that trickles in a byte at a time, a connection that never
 * finishes its headers, or one client's crowd of sockets, cannot hold either one. Plain data
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
  /**
   * Connections held at once from one client address (the socket's: behind a proxy, the proxy's,
   * since a forwarded address is known only once a request's headers have come); further ones from
   * that address are closed as they arrive, so one client cannot take every slot.
   */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: Readonly<ConnectionLimits> = {
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1024,
  maxConnectionsPerAddress: 128,
};

/** The environment variables that set the limits, for both command lines. */
export const CONNECTION_LIMIT_VARIABLES: Readonly<Record<keyof ConnectionLimits, string>> = {
  requestTimeoutMs: 'INVOICEKIT_REQUEST_TIMEOUT_MS',
  headersTimeoutMs: 'INVOICEKIT_HEADERS_TIMEOUT_MS',
  keepAliveTimeoutMs: 'INVOICEKIT_KEEP_ALIVE_TIMEOUT_MS',
  maxConnections: 'INVOICEKIT_MAX_CONNECTIONS',
  maxConnectionsPerAddress: 'INVOICEKIT_MAX_CONNECTIONS_PER_ADDRESS',
};

/** The limits set in `env` (whole positive numbers; others are ignored), for `connectionLimits`. */
export function connectionLimitsFromEnv(env: Readonly<Record<string, string | undefined>>): Partial<ConnectionLimits> {
  const limits: Partial<ConnectionLimits> = {};
  for (const [key, name] of Object.entries(CONNECTION_LIMIT_VARIABLES) as [keyof ConnectionLimits, string][]) {
    const value = Number(env[name]);
    if (env[name] && Number.isInteger(value) && value > 0) limits[key] = value;
  }
  return limits;
}

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

/** The part of a socket the per-address cap reads and closes. */
interface ClientSocket {
  remoteAddress?: string | undefined;
  destroy(): void;
  once(event: 'close', listener: () => void): unknown;
}

/**
 * Sets the connection caps on a server: all connections (`net.Server#maxConnections`) and those of
 * each client address, counted as they open and close.
 */
export function capConnections(
  server: { maxConnections: number; on(event: 'connection', listener: (socket: ClientSocket) => void): unknown },
  limits: ConnectionLimits,
): void {
  server.maxConnections = limits.maxConnections;
  if (limits.maxConnectionsPerAddress >= limits.maxConnections) return;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= limits.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

export function connectionLimits(overrides: Partial<ConnectionLimits> = {}): ConnectionLimits {
  return { ...DEFAULT_CONNECTION_LIMITS, ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) };
}
