import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServerType } from '@hono/node-server';
import { REQUEST_ID_HEADER, requestIdOf } from '../server-kit/request-id.js';

/** Node's own answers to a request it could not read whole, by its error's code (as Node chooses them). */
const RAW_STATUS: Record<string, number> = { ERR_HTTP_REQUEST_TIMEOUT: 408, HPE_HEADER_OVERFLOW: 431, HPE_CHUNK_EXTENSIONS_OVERFLOW: 413 };

/**
 * Gives a request id to the answers the app never sees: Node's 408 to a request slower than the
 * connection limits, its 400, 413 and 431 to one it cannot parse, and the adapter's 400 to a path or
 * `Host` it cannot read. Each request's answer starts with an id, which the app's own replaces.
 */
export function identifyRawAnswers(server: ServerType, trustProxy: number): void {
  // An HTTP/1 server: the service gives the adapter no `createServer` of its own.
  const http = server as Server;
  http.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const sent = request.headers['x-request-id'];
    response.setHeader(REQUEST_ID_HEADER, requestIdOf(typeof sent === 'string' ? sent : undefined, trustProxy > 0));
  });
  // Written as Node writes them by default (then the socket is destroyed), with the id added.
  http.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    const answering = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (socket.writable && error.code !== 'ECONNRESET' && !answering?.headersSent) {
      const status = RAW_STATUS[error.code ?? ''] ?? 400;
      const id = answering?.getHeader(REQUEST_ID_HEADER);
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n${REQUEST_ID_HEADER}: ${typeof id === 'string' ? id : randomUUID()}\r\n\r\n`,
      );
    }
    socket.destroy(error);
  });
}
