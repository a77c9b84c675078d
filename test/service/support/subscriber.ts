import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a subscriber received. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** A real HTTP subscriber on 127.0.0.1 that records what it receives and can be taken down and brought back. */
export class Subscriber {
  readonly received: Received[] = [];
  port = 0;
  status = 200;
  #server: Server | undefined;

  async start(port = this.port): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        if (this.status < 300) this.received.push({ path: request.url ?? '/', headers: request.headers, body, json });
        response.writeHead(this.status, { 'content-type': 'text/plain' });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.#server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Waits until a delivery matching `match` has arrived. */
  async waitFor(match: (entry: Received) => boolean, timeoutMs = 20_000): Promise<Received> {
    const started = Date.now();
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      if (Date.now() - started > timeoutMs) throw new Error(`no matching delivery within ${timeoutMs} ms; received ${this.received.length}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** The check a subscriber makes, as docs/webhooks.md shows it. */
export function verifySignature(secret: string, header: string | undefined, body: string): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((part) => part.split('=', 2) as [string, string]));
  if (!parts.t || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
  return expected.length === parts.v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(parts.v1));
}
