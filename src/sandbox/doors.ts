/**
 * The sandbox's locked doors. It runs on a developer's machine, where any web page they visit
 * can make their browser talk to it, so two things are checked on every request:
 *
 * 1. The Host header (DNS rebinding). A hostile page at `http://evil.example:4010` can point
 *    its own name at 127.0.0.1 and then read the sandbox as if it were its own origin; the
 *    browser still sends `Host: evil.example:4010`. The sandbox answers only names an attacker
 *    cannot control: `localhost` and `*.localhost`, IP addresses, the host it listens on, and
 *    the host of `publicUrl`. The port is not compared: the name is what an attacker would
 *    have to own, and a port mapping (Docker, SSH) legitimately changes the port.
 * 2. Where a decision comes from (cross-site form posts). A form on any site can POST to the
 *    bank page's decision address. A decision needs the token the bank page puts in its form
 *    (an HMAC of the payment id under a key made at start, so nobody who has not read the page
 *    knows it), must be a urlencoded form, and a browser that says where the request comes from
 *    (Sec-Fetch-Site, Origin) must say it comes from the sandbox's own origin. The token alone
 *    would do; the other checks make a mistake in one of them not enough to open the door.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

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
  /** The decision form's token for a payment. */
  token(paymentId: string): string;
  /** Whether a decision request comes from the payment's own bank page. */
  fromBankPage(req: IncomingMessage, paymentId: string, token: string | null): boolean;
}

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
    fromBankPage(req, paymentId, given) {
      if (!/^application\/x-www-form-urlencoded\s*(?:;|$)/i.test(req.headers['content-type'] ?? ''))
        return false;
      if (typeof given !== 'string') return false;
      const expected = Buffer.from(token(paymentId));
      const actual = Buffer.from(given);
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return false;
      // What a browser says about where the request comes from; clients that send neither
      // (curl, tests) pass here, the token still stands in their way.
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin') return false;
      // `null` is what an opaque origin (a sandboxed frame, a data: page) sends: never ours.
      const from = req.headers.origin;
      const own = [origin(req), ...(publicUrl ? [publicUrl.origin] : [])];
      return from === undefined || own.includes(from);
    },
  };
}

/** The body of the 421 for a Host the sandbox does not answer (plain text, for developers). */
export function foreignHostMessage(name: string | undefined): string {
  const refused =
    name === undefined
      ? 'The ServicePay sandbox answers only requests with a valid Host header.'
      : `The ServicePay sandbox does not answer for the host "${name}".`;
  return `${refused} It answers for localhost, IP addresses, the host it listens on and the host of its publicUrl option (--public-url); to reach it under another name, give that address as publicUrl.\n`;
}
