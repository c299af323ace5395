import { createServer } from 'node:http';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { listenOnFreePort } from '../../helpers/free-port';

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `listener` on 127.0.0.1 at an ephemeral port. */
export async function listen(listener: RequestListener): Promise<TestServer> {
  const server = createServer(listener);
  const port = await listenOnFreePort(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
}

/** Sends a delivery over real HTTP. */
export async function send(
  url: string,
  body: string | Uint8Array<ArrayBuffer> | undefined,
  headers: Record<string, string> = {},
  method = 'PUT',
): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** A node:http listener serving a Fetch API handler, as Next.js or an edge runtime would. */
export function fetchAdapter(handler: (request: Request) => Promise<Response>): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      // As a platform proxy does: the peer address, overwriting whatever the client sent.
      headers.set('x-forwarded-for', req.socket.remoteAddress ?? '');
      const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
        ...(hasBody
          ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' }
          : {}),
      } as RequestInit);
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  };
}

/** Resolves after `ms` milliseconds (to hold a handler open, never to assert timing). */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
