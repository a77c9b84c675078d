import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A webhook subscriber that misbehaves at the socket level, as a hostile tenant's endpoint would:
 * - `answer-and-close`: answers 503 on the first bytes of the request, before reading its body, and
 *   closes the connection (the rest of the body then meets a closed socket);
 * - `reset`: resets the connection as soon as the request starts;
 * - `garbage`: answers bytes that are not HTTP;
 * - `cut-mid-body`: reads part of the body, then destroys the socket;
 * - `endless`: answers headers and then a body that never ends;
 * - `answer-before-body`: reads nothing of the request; once the service has had time to fill the
 *   socket's buffers with it, answers `503` (keep-alive, no body) and closes. The unread body makes
 *   the kernel reset the connection, so the part of a large body still waiting to be written fails
 *   just after the answer is read.
 */
export type HostileMode = 'answer-and-close' | 'reset' | 'garbage' | 'cut-mid-body' | 'endless' | 'answer-before-body';

/** How long `answer-before-body` waits: the service writes what the buffers take well within it. */
const ANSWER_AFTER_MS = 200;

export class HostileSubscriber {
  mode: HostileMode;
  /** Connections the subscriber has seen. */
  connections = 0;
  port = 0;
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;

  constructor(mode: HostileMode) {
    this.mode = mode;
  }

  async start(): Promise<void> {
    // Paused on connecting, so that `answer-before-body` reads nothing; the other modes read at once.
    const server = createServer({ pauseOnConnect: true }, (socket) => {
      this.connections += 1;
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => undefined);
      if (this.mode === 'answer-before-body') {
        const answer = setTimeout(() => {
          socket.write('HTTP/1.1 503 Service Unavailable\r\nconnection: keep-alive\r\ncontent-length: 0\r\n\r\n');
          socket.destroy();
        }, ANSWER_AFTER_MS);
        socket.on('close', () => clearTimeout(answer));
        return;
      }
      let seen = 0;
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        switch (this.mode) {
          case 'answer-and-close':
            socket.write('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 2\r\n\r\nok');
            socket.destroy();
            break;
          case 'reset':
            socket.resetAndDestroy();
            break;
          case 'garbage':
            socket.write('\u0000\u00ff garbage \r\n\r\n HTTP/9.9 ???\r\n');
            socket.end();
            break;
          case 'cut-mid-body':
            if (seen > 16 * 1024) socket.destroy();
            break;
          case 'endless':
            if (seen === chunk.length) {
              socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
              const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write('1\r\nx\r\n')), 50);
            }
            break;
        }
      });
      socket.resume();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
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
    for (const socket of this.#sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
