/**
 * One webhook request: PUT of exact bytes with exact headers, on node:http(s) rather than
 * fetch, because fetch adds headers of its own (sec-fetch-mode, accept-language…) and pools
 * connections that would outlive stop(). `agent: false` gives each attempt its own connection,
 * closed when the attempt ends.
 */
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface PutOptions {
  headers: Record<string, string>;
  /** Fails the attempt when the complete answer has not arrived by then. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface PutResponse {
  statusCode: number;
  /** The start of the answer's body (at most MAX_KEPT_BODY characters), to show. */
  bodyText: string;
}

/** Enough of an answer to read a stack trace or an error page's message, not a whole page. */
export const MAX_KEPT_BODY = 4096;

/** No complete answer in time: its own class, so a hint can tell it from other failures. */
export class AnswerTimeoutError extends Error {
  override name = 'AnswerTimeoutError';
}

export function putBytes(url: URL, body: Buffer, options: PutOptions): Promise<PutResponse> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'PUT',
      agent: false,
      headers: { ...options.headers, 'Content-Length': String(body.length) },
      signal: options.signal,
    });
    const timer = setTimeout(() => {
      req.destroy(new AnswerTimeoutError(`no complete answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      let kept = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (kept.length < MAX_KEPT_BODY) kept = (kept + chunk).slice(0, MAX_KEPT_BODY);
      });
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ statusCode: res.statusCode ?? 0, bodyText: kept });
      });
      // A connection closed mid-answer: not a delivery (settling twice is a no-op).
      res.on('close', () => {
        if (!res.complete) fail(new Error('the connection closed before the answer was complete'));
      });
    });
    req.end(body);
  });
}

/** A short, readable reason for a failed attempt. */
export function describeFailure(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code, message, name } = error as { code?: unknown; message?: unknown; name?: unknown };
    if (name === 'AbortError') return 'cancelled: the sandbox stopped';
    const text = typeof message === 'string' && message ? message : String(error);
    return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
  }
  return String(error);
}
