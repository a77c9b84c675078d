import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** When the request arrived, from `performance.now()`. */
  at: number;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

/**
 * A tiny HTTP server on 127.0.0.1 for what the real service never does on purpose: 429s, 5xx,
 * hanging answers. It records every request so tests can count attempts and read what was sent.
 */
export async function startLocalServer(handler: Handler) {
  const requests: RecordedRequest[] = [];
  let current = handler;
  const server = createServer(async (req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', 'http://127.0.0.1'), headers: req.headers, body: Buffer.concat(chunks), at };
    requests.push(recorded);
    try {
      await current(recorded, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(599);
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Replaces the handler and forgets the recorded requests. */
    reset(next: Handler) {
      current = next;
      requests.length = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

export function sendXml(res: ServerResponse, status: number, xml: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/xml; charset=utf-8', ...headers });
  res.end(xml);
}
