/**
 * What every route of the sandbox's node:http server shares: reading bodies, answering, CORS,
 * and the locked doors.
 *
 * The sandbox runs on a developer's machine, where any web page they visit can make their
 * browser talk to it, so it checks:
 *
 * 1. The Host header (DNS rebinding). A hostile page at `http://evil.example:4010` can point
 *    its own name at 127.0.0.1 and then read the sandbox as if it were its own origin; the
 *    browser still sends `Host: evil.example:4010`. The sandbox answers only names an attacker
 *    cannot control: `localhost` and `*.localhost`, IP addresses, the host it listens on, and
 *    the host of `publicUrl`. The port is not compared: the name is what an attacker would
 *    have to own, and a port mapping (Docker, SSH) legitimately changes the port.
 * 2. Where an action comes from (cross-site form posts). A form on any site can POST to the
 *    bank page's decision address, or to the deliveries page's Resend and break-it actions.
 *    An action from a page needs the token that page puts in its form (an HMAC of what the
 *    form is for, the payment id or the deliveries page, under a key made at start, so nobody
 *    who has not read the page knows it), must be a urlencoded form, and a browser that says
 *    where the request comes from (Sec-Fetch-Site, Origin) must say it comes from the
 *    sandbox's own origin. The token alone would do; the other checks make a mistake in one of
 *    them not enough to open the door.
 * 3. The same actions as JSON, for the CLI and scripts on this machine (fromTool): they need
 *    `Content-Type: application/json`, which no form can send and which a page elsewhere can
 *    send only after a CORS preflight that the sandbox never grants, and the same origin
 *    checks as a form.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { BodyTooLargeError } from '../api/errors';

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

/** The sandbox's forms have a few short fields (the decision; a resend with its faults). */
export const MAX_FORM_BYTES = 4096;

/** Form fields of an `application/x-www-form-urlencoded` body. */
export function formFields(body: Buffer): URLSearchParams {
  return new URLSearchParams(body.toString('utf8'));
}

// The locked doors.

const HOST_HEADER = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The name part of a Host header: lower case, without port, brackets or a final dot. */
function hostName(host: string | undefined): string | undefined {
  if (typeof host !== 'string' || !HOST_HEADER.test(host)) return undefined;
  try {
    // URL also normalises what browsers would (case, IPv4 written in hex or short forms).
    return new URL(`http://${host}/`).hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

export interface Doors {
  /** Whether the request's Host is one the sandbox answers for, and the name it carried. */
  checkHost(req: IncomingMessage): { ok: boolean; name: string | undefined };
  /**
   * The origin the client used to reach the sandbox, so the absolute URLs it gets back (bank
   * page, icons) work from where it is: `localhost`, `127.0.0.1`, a LAN address from a phone,
   * or publicUrl (with its scheme: a tunnel usually ends TLS in front of the sandbox).
   */
  origin(req: IncomingMessage): string;
  /** The token of a form: `purpose` is the payment id (bank page) or DELIVERIES_FORM. */
  token(purpose: string): string;
  /** Whether a form's POST comes from the sandbox's own page that holds the token. */
  fromOwnPage(req: IncomingMessage, purpose: string, token: string | null): boolean;
  /** Whether a JSON request comes from a tool on this machine, not a page elsewhere. */
  fromTool(req: IncomingMessage): boolean;
}

/** The purpose of the deliveries page's forms (a payment id is a UUID: never this). */
export const DELIVERIES_FORM = 'deliveries page';

export function createDoors({
  host,
  publicUrl,
}: {
  host: string;
  publicUrl: URL | undefined;
}): Doors {
  const allowed = new Set<string>();
  for (const name of [host, publicUrl?.host]) {
    const normalised = hostName(name);
    if (normalised !== undefined) allowed.add(normalised);
  }
  // A new key at each start: payments live in memory, so no page outlives it.
  const key = randomBytes(32);
  const token = (paymentId: string) =>
    createHmac('sha256', key).update(paymentId).digest('base64url');

  function origin(req: IncomingMessage): string {
    // Only a request whose Host passed checkHost reaches a route: the header is a valid host.
    const host = req.headers.host!;
    if (publicUrl !== undefined && host.toLowerCase() === publicUrl.host) return publicUrl.origin;
    return `http://${host}`;
  }

  return {
    checkHost(req) {
      const name = hostName(req.headers.host);
      if (name === undefined) return { ok: false, name };
      const ok =
        name === 'localhost' ||
        name.endsWith('.localhost') ||
        isIP(name) !== 0 ||
        allowed.has(name);
      return { ok, name };
    },
    origin,
    token,
    fromOwnPage(req, purpose, given) {
      if (!/^application\/x-www-form-urlencoded\s*(?:;|$)/i.test(req.headers['content-type'] ?? ''))
        return false;
      if (typeof given !== 'string') return false;
      const expected = Buffer.from(token(purpose));
      const actual = Buffer.from(given);
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return false;
      return sameOrigin(req, false);
    },
    fromTool(req) {
      if (!/^application\/json\s*(?:;|$)/i.test(req.headers['content-type'] ?? '')) return false;
      // `none` is a request the user started themselves (typed, a bookmark); a tool sends none.
      return sameOrigin(req, true);
    },
  };

  /**
   * What a browser says about where the request comes from; clients that send neither (curl,
   * the CLI, tests) pass here, and the token or the JSON content type still stand in the way.
   */
  function sameOrigin(req: IncomingMessage, allowNone: boolean): boolean {
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && !(allowNone && site === 'none'))
      return false;
    // `null` is what an opaque origin (a sandboxed frame, a data: page) sends: never ours.
    const from = req.headers.origin;
    const own = [origin(req), ...(publicUrl ? [publicUrl.origin] : [])];
    return from === undefined || own.includes(from);
  }
}

/** The body of the 421 for a Host the sandbox does not answer (plain text, for developers). */
export function foreignHostMessage(name: string | undefined): string {
  const refused =
    name === undefined
      ? 'The ServicePay sandbox answers only requests with a valid Host header.'
      : `The ServicePay sandbox does not answer for the host "${name}".`;
  return `${refused} It answers for localhost, IP addresses, the host it listens on and the host of its publicUrl option (--public-url); to reach it under another name, give that address as publicUrl.\n`;
}
