/** The receiver for node:http and Express (and anything else that passes node's req/res). */
import type { KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebhookRequestError } from './errors';
import { nodePublicKey } from './node-key';
import { readNodeBody } from './node-body';
import type { NodeBody } from './node-body';
import { resolveReceiverOptions } from './resolve-options';
import type { WebhookReceiverOptions } from './options';
import { BODY_ALREADY_PARSED } from './outcome';
import type { ReceiverResponse } from './outcome';
import { createReceiver, tooLarge } from './receiver';
import { isThenable } from './thenable';
import { verifyWebhookSignature } from './verify-node';

/** Options of createWebhookHandler. */
export interface WebhookHandlerOptions extends WebhookReceiverOptions<KeyObject> {
  /**
   * The address a delivery came from, checked against allowedSourceAddresses. Behind a proxy,
   * return the client address the proxy reports (only if the proxy overwrites that header).
   * @default (req) => req.socket.remoteAddress
   */
  getSourceAddress?: (req: IncomingMessage) => string | null | undefined;
}

/**
 * A node:http request listener; also an Express handler. It reads the raw body itself and
 * always answers on `res`; it never throws.
 */
export type WebhookHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Creates the webhook receiver for node:http and Express: PUT only, size limit, signature
 * verified on the exact bytes, notification parsed, and handed to onNotification once per
 * distinct notification; 200 only after onNotification succeeded.
 *
 * @throws WebhookConfigError or WebhookKeyError when the options are unusable.
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const resolved = resolveReceiverOptions<KeyObject>(options, nodePublicKey);
  const receiver = createReceiver<KeyObject>(resolved, verifyWebhookSignature);
  const getSourceAddress = options.getSourceAddress ?? ((req) => req.socket?.remoteAddress);

  function refuseBody(body: Exclude<NodeBody, { kind: 'bytes' }>): ReceiverResponse {
    switch (body.kind) {
      case 'too-large':
        return receiver.refuse('body-too-large', tooLarge(resolved.maxBodyBytes));
      case 'already-parsed':
        return receiver.refuse(
          'body-already-parsed',
          new WebhookRequestError(BODY_ALREADY_PARSED, 500),
        );
      case 'unreadable':
        return receiver.refuse('body-unreadable', body.error);
    }
  }

  const fail = (res: ServerResponse, error: unknown): void =>
    send(res, receiver.refuse('internal-error', error));

  // Callbacks rather than async/await on purpose: this runs for every delivery, and each
  // promise and microtask hop shows in the receiver benchmark against a bare server.
  return (req, res) => {
    try {
      const sourceAddress = getSourceAddress(req) ?? undefined;
      const early = receiver.preflight(req.method, sourceAddress, req.headers['content-length']);
      if (early !== null) return send(res, early);
      readNodeBody(req, resolved.maxBodyBytes, (body) => {
        try {
          if (body.kind !== 'bytes') return send(res, refuseBody(body));
          const authorization = req.headers.authorization ?? null;
          const received = receiver.receive(body.bytes, authorization, sourceAddress);
          if (!isThenable(received)) return send(res, received);
          received.then(
            (response) => send(res, response),
            (error: unknown) => fail(res, error),
          );
        } catch (error) {
          fail(res, error);
        }
      });
    } catch (error) {
      fail(res, error);
    }
  };
}

/** Node headers per answer, built once: the answers themselves are shared and never change. */
const nodeHeaders = new Map<ReceiverResponse, Record<string, string | number>>();

function headersFor(response: ReceiverResponse): Record<string, string | number> {
  let headers = nodeHeaders.get(response);
  if (headers === undefined) {
    // An explicit length rather than chunked encoding: the answer is complete and small.
    headers = { ...response.headers, 'content-length': Buffer.byteLength(response.body, 'utf8') };
    // Refused before the body was read in full: close the connection rather than keep it
    // alive, which would mean reading the rest of an oversized body.
    if (response.outcome === 'body-too-large') headers.connection = 'close';
    nodeHeaders.set(response, headers);
  }
  return headers;
}

function send(res: ServerResponse, response: ReceiverResponse): void {
  try {
    if (res.headersSent || res.writableEnded) return;
    if (response.body === '' && response.status === 200) {
      // The 200s, on every genuine delivery: end() with no chunk (given one, even '', node
      // takes its body-writing path, measured at about 5% of the receiver's time under load),
      // and no headers object to copy: node itself sends Content-Length: 0.
      res.statusCode = 200;
      res.end();
      return;
    }
    res.writeHead(response.status, headersFor(response));
    res.end(response.body, 'utf8');
  } catch {
    // The socket is gone; there is nobody left to answer.
  }
}
