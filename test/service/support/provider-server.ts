import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a stand-in received it. */
export interface ProviderRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ProviderAnswer {
  status: number;
  body: unknown;
  /** `text/html` for a page; JSON otherwise. */
  html?: boolean;
}

/**
 * A real HTTP server on 127.0.0.1 for a payment provider's stand-in: it records every request, can
 * hold its answers (to see what the service does while a provider is slow) and can go down.
 */
export class ProviderServer {
  readonly requests: ProviderRequest[] = [];
  port = 0;
  #server: Server | undefined;
  #held: Promise<void> | undefined;
  #release: (() => void) | undefined;
  #arrived: ((request: ProviderRequest) => void)[] = [];

  constructor(private readonly route: (request: ProviderRequest) => ProviderAnswer) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(port = this.port): Promise<void> {
    const server = createServer((incoming, response) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', async () => {
        const request = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.requests.push(request);
        for (const wake of this.#arrived.splice(0)) wake(request);
        if (this.#held) await this.#held;
        const answer = this.route(request);
        response.writeHead(answer.status, { 'content-type': answer.html ? 'text/html; charset=utf-8' : 'application/json' });
        response.end(answer.html ? String(answer.body) : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.#server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Takes the server down: requests are refused until `start()` brings it back on the same port. */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Answers nothing until the returned function is called. */
  hold(): () => void {
    this.#held = new Promise<void>((resolve) => {
      this.#release = resolve;
    });
    return () => {
      this.#held = undefined;
      this.#release?.();
    };
  }

  /** Resolves with the next request that arrives. */
  nextRequest(): Promise<ProviderRequest> {
    return new Promise((resolve) => this.#arrived.push(resolve));
  }
}

export const bearerOf = (headers: IncomingHttpHeaders) => /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];

/**
 * The notifications a stand-in posts to the service, as they are answered: a test waits for the next
 * one, or for every one started so far.
 */
export class DeliveryLog<T> {
  readonly done: T[] = [];
  #pending = new Set<Promise<T>>();
  #waiting: ((delivery: T) => void)[] = [];

  /** Posts `body` as JSON to `url` with `headers`; `answered` makes the record from the service's status (0: unreachable). */
  post(url: string, body: string, headers: Record<string, string>, answered: (status: number) => T): Promise<T> {
    const delivery = fetch(url, { method: 'POST', headers, body }).then(
      async (response) => {
        await response.body?.cancel();
        return answered(response.status);
      },
      () => answered(0),
    );
    return this.track(delivery);
  }

  /** Records `delivery` once it is answered. */
  track(delivery: Promise<T>): Promise<T> {
    const recorded: Promise<T> = delivery.then((done) => {
      this.done.push(done);
      this.#pending.delete(recorded);
      for (const wake of this.#waiting.splice(0)) wake(done);
      return done;
    });
    this.#pending.add(recorded);
    return recorded;
  }

  /** Resolves with the next delivery once the service has answered it. */
  next(): Promise<T> {
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Resolves once every delivery started so far has been answered. */
  async settled(): Promise<void> {
    while (this.#pending.size) await Promise.all([...this.#pending]);
  }
}
