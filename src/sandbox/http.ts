/** Small request/response helpers of the sandbox server (node:http, no framework). */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The request body exceeded the limit; answered 413. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  readonly limit: number;
  constructor(limit: number) {
    super(`The request body is larger than ${limit} bytes`);
    this.limit = limit;
  }
}

/** Reads a body of at most `limit` bytes; rejects with BodyTooLargeError beyond it. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BodyTooLargeError(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Headers every answer carries: nothing is cached, nothing is sniffed, no referrer leaks. */
const COMMON_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * Starts a `text/event-stream` answer (Server-Sent Events), left open: the caller writes the
 * events and stops when the client goes. `retry` tells the browser how soon to reconnect.
 */
export function startEventStream(res: ServerResponse): void {
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'Content-Type': 'text/event-stream; charset=utf-8',
  });
  res.write('retry: 2000\n\n');
}

/** 304 Not Modified: the validators and caching headers again, no body. */
export function sendNotModified(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(304, { ...COMMON_HEADERS, ...headers });
  res.end();
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  send(res, status, JSON.stringify(body), {
    'Content-Type': 'application/json; charset=utf-8',
    ...headers,
  });
}

export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: message }, headers);
}

export function send(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string>,
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, {
    ...COMMON_HEADERS,
    ...headers,
    'Content-Length': String(bytes.length),
  });
  res.end(bytes);
}

/**
 * CORS for the JSON API: the component runs on the merchant's page, another origin. Any origin
 * is allowed: the sandbox holds nothing secret and uses no cookies (so no credentials either).
 * The origin is reflected, with `Vary: Origin`, so the answers also suit a proxy that caches.
 */
export function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return {
    'Access-Control-Allow-Origin': typeof origin === 'string' && origin !== '' ? origin : '*',
    'Access-Control-Expose-Headers': 'Idempotent-Replayed',
    Vary: 'Origin',
  };
}

/** The answer to a CORS preflight for the API's methods and headers. */
export function preflightHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {
    ...corsHeaders(req),
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': 'Content-Type, Idempotency-Key, Accept',
    'Access-Control-Max-Age': '600',
  };
  // Chrome's Private Network Access: a public page calling a loopback sandbox asks first.
  if (req.headers['access-control-request-private-network'] === 'true') {
    headers['Access-Control-Allow-Private-Network'] = 'true';
  }
  return headers;
}

/** Form fields of an `application/x-www-form-urlencoded` body. */
export function formFields(body: Buffer): URLSearchParams {
  return new URLSearchParams(body.toString('utf8'));
}
