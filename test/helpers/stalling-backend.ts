import { createServer } from 'node:http';
import { DEFAULT_INSTITUTIONS, defaultInitiatedPayment } from './fake-transport';
import { listenOnFreePort } from './free-port';

/**
 * A real node:http backend speaking createHttpTransport's contract, on 127.0.0.1 at an
 * ephemeral port, that can misbehave per request the way a broken backend or proxy does:
 *
 * - `answer`: the whole answer at once (the fake transport's default banks and payments);
 * - `stall`: status and headers, the first bytes of the JSON, then nothing, ever;
 * - `endless`: status and headers, then JSON-looking bytes without end.
 *
 * Each request is recorded with a `cutOff` promise that settles when the client closed the
 * connection before the answer was complete: what an abort looks like from the server.
 */

export type Behaviour = 'answer' | 'stall' | 'endless';

export interface SeenRequest {
  method: string;
  path: string;
  body: string;
  /** Resolves once the client closed the connection before the answer was complete. */
  cutOff: Promise<void>;
  /** Whether that has happened yet. */
  readonly wasCutOff: boolean;
}

export interface StallingBackend {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export async function startStallingBackend(
  plan: (request: { method: string; path: string; index: number }) => Behaviour,
): Promise<StallingBackend> {
  const requests: SeenRequest[] = [];
  let payments = 0;
  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    let body = '';
    let cut = false;
    let markCutOff!: () => void;
    const cutOff = new Promise<void>((resolve) => (markCutOff = resolve));
    res.on('close', () => {
      if (res.writableFinished) return;
      cut = true;
      markCutOff();
    });
    const seen: SeenRequest = {
      method,
      path,
      get body() {
        return body;
      },
      cutOff,
      get wasCutOff() {
        return cut;
      },
    };
    const index = requests.push(seen) - 1;
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const isPayment = path.startsWith('/v1/payments');
      const behaviour = plan({ method, path, index });
      const headers = { 'content-type': 'application/json' };
      if (behaviour === 'answer') {
        const answer = isPayment
          ? defaultInitiatedPayment(++payments)
          : { institutions: DEFAULT_INSTITUTIONS };
        res.writeHead(isPayment ? 201 : 200, headers).end(JSON.stringify(answer));
        return;
      }
      res.writeHead(isPayment ? 201 : 200, headers);
      // Headers go out with the first bytes of the body; then the stall or the flood.
      res.write(isPayment ? '{"paymentId":' : '{"institutions":[');
      if (behaviour === 'endless') {
        const chunk = '{"id":"x","name":"x"},'.repeat(3000);
        const pump = (): void => {
          if (res.destroyed) return;
          if (res.write(chunk)) setImmediate(pump);
          else res.once('drain', pump);
        };
        pump();
      }
    });
  });
  const port = await listenOnFreePort(server);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
