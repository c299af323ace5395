import { createServer } from 'node:http';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { connect } from 'node:net';
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

export interface Trickle {
  /** Bytes written after the opening, one at a time, before the server closed the connection. */
  trickled: number;
  /** Whether the server closed the connection before the trickle ran out. */
  cut: boolean;
  /** What the server answered, if anything. */
  answer: string;
}

/**
 * A slow client on a raw socket: writes `opening`, then one byte of `rest` every 20 ms, and
 * stops when the server closes the connection or `rest` runs out.
 */
export function trickle(url: string, opening: string, rest: string): Promise<Trickle> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let trickled = 0;
    let answer = '';
    let closed = false;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => {}); // a reset is one way of being cut
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      resolve({ trickled, cut: trickled < rest.length, answer });
    });
    socket.on('connect', () => {
      socket.write(opening);
      const next = (): void => {
        if (closed) return;
        if (trickled === rest.length) {
          socket.destroy();
          return;
        }
        socket.write(rest.charAt(trickled++));
        timer = setTimeout(next, 20);
      };
      next();
    });
    socket.once('error', (error) => {
      if (!closed && trickled === 0) reject(error);
    });
  });
}
