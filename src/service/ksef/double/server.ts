import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createKsefDouble, type KsefDouble, type KsefDoubleOptions } from './app.js';

export interface RunningKsefDouble extends KsefDouble {
  /** `http://127.0.0.1:PORT`: pass it as `localOrigin` to the client and to the KOD I links. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Starts the bundled KSeF double on its own port (an ephemeral one by default), on loopback. */
export async function startKsefDouble(
  options: KsefDoubleOptions & { readonly port?: number; readonly host?: string } = {},
): Promise<RunningKsefDouble> {
  const double = createKsefDouble(options);
  const host = options.host ?? '127.0.0.1';
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch: double.app.fetch, port: options.port ?? 0, hostname: host }, () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    ...double,
    requests: double.requests,
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        double
          .settled()
          .then(() => server.close((error) => (error ? reject(error) : resolve())))
          .catch(reject);
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      })),
  };
}
