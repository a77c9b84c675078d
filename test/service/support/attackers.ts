import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';

/**
 * The fault-injection test's attackers, in a process of their own so that their load is not the
 * measuring client's: a slow-loris client and an XML flood, each from its own loopback address.
 * Started with the service's URL, an account's token and how long to run; it writes `started` once
 * the attacks run, and what it did as one JSON line on stdout when it ends.
 */
const [url = '', token = '', runMs = '10000'] = process.argv.slice(2);
const until = Date.now() + Number(runMs);
const running = () => Date.now() < until;
const { hostname, port } = new URL(url);

/** Keeps `count` connections from `from` sending a request's headers one byte every 500 ms, reopening those the service closes. */
function slowLoris(from: string, count: number): { opened: () => number; stop: () => void } {
  const sockets = new Set<Socket>();
  let opened = 0;
  const headers = `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(10_000)}`;
  const one = () => {
    if (!running()) return;
    const socket = connect({ host: hostname, port: Number(port), localAddress: from });
    opened += 1;
    sockets.add(socket);
    let at = 0;
    const drip = setInterval(() => {
      if (!socket.destroyed) socket.write(headers[at++ % headers.length]!);
    }, 500);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(drip);
      sockets.delete(socket);
      setTimeout(one, 250);
    });
  };
  for (let i = 0; i < count; i += 1) one();
  return {
    opened: () => opened,
    stop: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

function post(from: string, path: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve) => {
    const request = httpRequest(new URL(path, url), { method: 'POST', localAddress: from, agent: false, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', () => resolve(0));
    request.end(body);
  });
}

const loris = slowLoris('127.0.0.2', 48);
process.stdout.write('started\n');
// 1 MiB of XML: anonymous to an account's route and to a public one as fast as they are answered,
// and with a tenant's own token ten times a second.
const xml = `<invoice>${'<position><name>abc</name><tax>23</tax></position>'.repeat(20_000)}</invoice>`;
const answers: Record<string, number> = {};
const lanes: { path: string; headers: Record<string, string>; pauseMs: number }[] = [
  { path: '/invoices.xml', headers: {}, pauseMs: 0 },
  { path: '/invoice/payment/no-such-token.xml', headers: {}, pauseMs: 0 },
  { path: '/invoices.xml', headers: { authorization: `Bearer ${token}` }, pauseMs: 100 },
];
await Promise.all(
  lanes.map(async (lane) => {
    while (running()) {
      const status = await post('127.0.0.3', lane.path, { 'content-type': 'application/xml', ...lane.headers }, xml);
      answers[status] = (answers[status] ?? 0) + 1;
      if (lane.pauseMs) await new Promise((resolve) => setTimeout(resolve, lane.pauseMs));
    }
  }),
);
loris.stop();
process.stdout.write(`${JSON.stringify({ lorisOpened: loris.opened(), flood: answers })}\n`);
