/**
 * A webhook receiver for tests: a real node:http server on 127.0.0.1 that records each request
 * (exact body bytes included) and answers with the status its `respond` function chooses.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Resolves with the nth request (1-based) once it has arrived. */
  request(n: number): Promise<ReceivedRequest>;
  stop(): Promise<void>;
}

/** An answer: a status, a status with its body, or 'hang' to never answer. */
export type Answer = number | 'hang' | { status: number; body: string };

/** Answers each request, at once or later (a promise: to hold a request while others come). */
export type Respond = (request: ReceivedRequest, index: number) => Answer | Promise<Answer>;

export async function startReceiver(respond: Respond = () => 200, port = 0): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: { n: number; resolve: (r: ReceivedRequest) => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(received);
      const answer = respond(received, requests.length);
      for (const waiter of waiters.filter((w) => w.n === requests.length)) waiter.resolve(received);
      void Promise.resolve(answer).then((settled) => {
        if (settled === 'hang') return;
        const { status, body } =
          typeof settled === 'number'
            ? { status: settled, body: settled === 200 ? 'ok' : 'not now' }
            : settled;
        res.writeHead(status, { 'Content-Type': 'text/plain' });
        res.end(body);
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}/webhooks/servicepay`,
    port: actualPort,
    requests,
    request(n) {
      const existing = requests[n - 1];
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port that was free a moment ago (a server bound it and closed). */
export { freePort as closedPort } from '../../helpers/free-port';
