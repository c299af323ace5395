import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PaymentIds, PaymentStatus } from '../../src/core/index';
import { listenOnFreePort } from './free-port';

/**
 * A real node:http status endpoint for the result page's tests, on 127.0.0.1 at an ephemeral
 * port, speaking the contract of `createPaymentStatusHandler` (docs/after-the-bank.md):
 *
 * - `GET <path>?paymentId=…&merchantPaymentId=…`, both required (400 otherwise; 405 for
 *   another method);
 * - `Accept: application/json` (or none): `200 {"status":"PENDING"|"COMPLETED"|"FAILED"}`,
 *   `Cache-Control: no-store`; an unknown payment is PENDING;
 * - `Accept: text/event-stream`: the current status at once, then the final one when the test
 *   records it (`record`), then the end of the stream; heartbeat comments while waiting.
 *
 * `eventStream: 'fail'` answers every stream request with a 500 instead (a proxy that refuses
 * streams), so that a client must fall back to polling. Every request is recorded.
 */

export interface SeenStatusRequest {
  accept: string;
  paymentId: string | null;
  merchantPaymentId: string | null;
  /** The HTTP status it was answered with. */
  code: number;
}

export interface StatusServer {
  /** The origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The status endpoint's address: `${url}/api/payments/status`. */
  statusUrl: string;
  requests: SeenStatusRequest[];
  /** Event streams open now. */
  readonly openStreams: number;
  /** Records a payment's status; a final one goes out to its open streams at once. */
  record(ids: PaymentIds, status: PaymentStatus): void;
  close(): Promise<void>;
}

export interface StatusServerOptions {
  eventStream?: 'serve' | 'fail';
  /** Other routes (a test page): return true when handled. */
  routes?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

const PATH = '/api/payments/status';
const keyOf = (paymentId: string, merchantPaymentId: string) =>
  JSON.stringify([paymentId, merchantPaymentId]);

export async function startStatusServer(options: StatusServerOptions = {}): Promise<StatusServer> {
  const statuses = new Map<string, PaymentStatus>();
  const streams = new Map<string, Set<ServerResponse>>();
  const requests: SeenStatusRequest[] = [];
  const json = (status: PaymentStatus) => JSON.stringify({ status });

  const server = createServer((req, res) => {
    if (options.routes?.(req, res)) return;
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== PATH) return void res.writeHead(404).end();
    const accept = req.headers.accept ?? '';
    const paymentId = url.searchParams.get('paymentId');
    const merchantPaymentId = url.searchParams.get('merchantPaymentId');
    const seen: SeenStatusRequest = { accept, paymentId, merchantPaymentId, code: 0 };
    requests.push(seen);
    const answer = (code: number, body: string, headers: Record<string, string> = {}) => {
      seen.code = code;
      res.writeHead(code, { 'Content-Type': 'application/json', ...headers }).end(body);
    };
    if (req.method !== 'GET') return answer(405, '{"error":"GET only"}', { Allow: 'GET' });
    if (!paymentId || !merchantPaymentId) return answer(400, '{"error":"missing ids"}');
    const key = keyOf(paymentId, merchantPaymentId);
    const status = statuses.get(key) ?? 'PENDING';
    if (!accept.includes('text/event-stream')) {
      return answer(200, json(status), { 'Cache-Control': 'no-store' });
    }
    if (options.eventStream === 'fail') return answer(500, '{"error":"no streams here"}');
    seen.code = 200;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    res.write(`data: ${json(status)}\n\n`);
    if (status !== 'PENDING') return void res.end();
    const open = streams.get(key) ?? new Set();
    streams.set(key, open.add(res));
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), 5000);
    res.on('close', () => {
      clearInterval(heartbeat);
      open.delete(res);
    });
  });
  const url = `http://127.0.0.1:${await listenOnFreePort(server)}`;

  return {
    url,
    statusUrl: url + PATH,
    requests,
    get openStreams() {
      return [...streams.values()].reduce((n, set) => n + set.size, 0);
    },
    record({ paymentId, merchantPaymentId }, status) {
      const key = keyOf(paymentId, merchantPaymentId);
      statuses.set(key, status);
      if (status === 'PENDING') return;
      for (const res of streams.get(key) ?? []) res.end(`data: ${json(status)}\n\n`);
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
