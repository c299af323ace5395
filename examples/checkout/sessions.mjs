// @ts-check
// The shopper's session, for the return page of a bank that drops the return address's query
// (docs/going-live.md, "When the bank drops the query"): a cookie holding a random id, and on
// this server the order that session made last. The browser holds the id and nothing else: it
// is httpOnly (no script of the page reads it), SameSite=Lax (a cross-site request carries it
// only on a top-level navigation, never a fetch or a form post), and the order behind it is
// looked up here. Never the order's id itself: that id is in the payment's metadata and in
// `/?order=…` links, so anyone who has seen it could ask about the payment. A database (with
// the sessions' expiry) in a real shop.
import { randomBytes } from 'node:crypto';

/**
 * The cookie's name. A live shop on https adds `Secure` and the `__Host-` prefix
 * (`__Host-session`); the example runs on plain http at 127.0.0.1, where a browser may refuse
 * a Secure cookie.
 */
export const SESSION_COOKIE = 'example-coffee-session';
/** A day: a journey to the bank and back, with room for a slow bank. */
const SESSION_MAX_AGE_S = 24 * 60 * 60;
/** 32 random bytes, base64url: what this server makes, and the only form it reads. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export function createSessions() {
  /** @type {Map<string, string>} a session's id -> the order it made last */
  const orders = new Map();

  /**
   * The id the request's cookie names, when it is one this server made.
   * @param {import('node:http').IncomingMessage} req
   */
  function sessionOf(req) {
    for (const pair of (req.headers.cookie ?? '').split(';')) {
      const [name, value] = pair.trim().split('=', 2);
      if (name === SESSION_COOKIE && value && SESSION_ID.test(value) && orders.has(value)) {
        return value;
      }
    }
    return undefined;
  }

  return {
    /**
     * Makes `orderId` the order of the request's session, a new session when it has none; the
     * Set-Cookie header to answer with when the session is new.
     * @param {import('node:http').IncomingMessage} req
     * @param {string} orderId an order this server has just made for this request
     * @returns {string | undefined}
     */
    madeOrder(req, orderId) {
      const existing = sessionOf(req);
      const id = existing ?? randomBytes(32).toString('base64url');
      orders.set(id, orderId);
      if (existing) return undefined;
      return `${SESSION_COOKIE}=${id}; Path=/; Max-Age=${SESSION_MAX_AGE_S}; HttpOnly; SameSite=Lax`;
    },
    /**
     * The order the request's session made last, or undefined (no cookie, or not one of ours).
     * @param {import('node:http').IncomingMessage} req
     */
    orderOf(req) {
      const id = sessionOf(req);
      return id === undefined ? undefined : orders.get(id);
    },
  };
}
