/**
 * The node:http front door: the receiver as a request listener for node:http and Express
 * (`createWebhookHandler`), and a ready server with sane timeouts (`listenWebhook`).
 */
import type { KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookRequestError } from '../errors';
import { amountOf, checkOption } from '../option-checks';
import { isThenable } from '../maybe';
import { isArrayBuffer } from '../verification/encoding';
import { nodeCrypto } from '../verification/node-crypto';
import { resolveReceiverOptions } from './options';
import type { WebhookReceiverOptions } from './options';
import type { BodyRead, Receiver } from './receiver';
import { createReceiver } from './receiver';
import { observed } from './receiver-telemetry';
import type { ReceiverResponse } from './verdicts';

/** Options of createWebhookHandler. */
export interface WebhookHandlerOptions extends WebhookReceiverOptions<KeyObject> {
  /**
   * The address a delivery came from, checked against allowedSourceAddresses. Behind a proxy,
   * return the client address the proxy reports (only if the proxy overwrites that header).
   * @default (req) => req.socket.remoteAddress
   */
  getSourceAddress?: (req: IncomingMessage) => string | null | undefined;
  /**
   * Longest time for the body to arrive, from the handler's call to its last byte, whatever the
   * server's own deadlines (Node's default `requestTimeout` is 300 s): a client that trickles
   * it is answered 400 (`body-unreadable`) and its connection closed. Not used for a body that
   * a raw-body middleware has read already.
   * @default 15000
   */
  bodyTimeoutMs?: number;
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
  return nodeReceiver(options).handler;
}

/** The node:http front door and the receiver behind it (listenWebhook needs both). */
function nodeReceiver(options: WebhookHandlerOptions): {
  handler: WebhookHandler;
  receiver: Receiver;
  maxBodyBytes: number;
} {
  const resolved = resolveReceiverOptions<KeyObject>(options, nodeCrypto);
  const receiver = observed(createReceiver)<KeyObject>(resolved, nodeCrypto.verify);
  const getSourceAddress = options.getSourceAddress ?? ((req) => req.socket?.remoteAddress);
  const bodyTimeoutMs = checkOption(
    undefined,
    'bodyTimeoutMs',
    options.bodyTimeoutMs,
    15_000,
    amountOf('milliseconds'),
  );

  const fail = (res: ServerResponse, error: unknown): void => send(res, receiver.fail(error));

  // Callbacks rather than async/await on purpose, and an answer that is synchronous when
  // dispatch.ts can give it at once (a resend): this runs for every delivery, and each promise
  // and microtask hop shows. Measured in issue 21: the same path written with async/await throughout ran at
  // 0.88-0.96 of a bare server that reads, verifies and parses (under the 0.90 budget in four
  // runs of seven), against 0.98-0.99 for this one (`npm run bench -- webhook`).
  const handler: WebhookHandler = (req, res) => {
    try {
      const sourceAddress = getSourceAddress(req) ?? undefined;
      const early = receiver.preflight(req.method, sourceAddress, req.headers['content-length']);
      if (early !== null) return send(res, early);
      // Expect: 100-continue (listenWebhook's checkContinue): the body is invited only now,
      // after the checks above, so an oversized or misdirected request is refused unsent.
      if ((req as ContinueRequest)[EXPECTS_CONTINUE] === true) res.writeContinue();
      readNodeBody(req, resolved.maxBodyBytes, bodyTimeoutMs, (body) => {
        try {
          if (body.kind !== 'bytes') {
            return send(res, receiver.refuseBody(body));
          }
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
  return { handler, receiver, maxBodyBytes: resolved.maxBodyBytes };
}

/** Marks a request whose client waits for "100 Continue" before sending the body. */
const EXPECTS_CONTINUE = Symbol('servicepay.expectsContinue');
type ContinueRequest = IncomingMessage & { [EXPECTS_CONTINUE]?: boolean };

/** Node headers per answer, built once: the answers themselves are shared and never change. */
const nodeHeaders = new Map<ReceiverResponse, Record<string, string | number>>();

function headersFor(response: ReceiverResponse): Record<string, string | number> {
  let headers = nodeHeaders.get(response);
  if (headers === undefined) {
    // An explicit length rather than chunked encoding: the answer is complete and small.
    headers = { ...response.headers, 'content-length': Buffer.byteLength(response.body, 'utf8') };
    // Refused before the body was read in full: close the connection rather than keep it
    // alive, which would mean reading the rest of an oversized body.
    // The same for a delivery ended by close(): the server is going away.
    // And for a body that could not be read (one trickled past bodyTimeoutMs above all): its
    // client would otherwise keep the connection with the rest of it.
    if (
      response.verdict === 'body-too-large' ||
      response.verdict === 'body-unreadable' ||
      response.verdict === 'shutting-down'
    ) {
      headers.connection = 'close';
    }
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

// Reading the body ----------------------------------------------------------------------------
// Bytes are kept as received (never decoded to text) because the signature covers them exactly.

/**
 * Reads the body of `req`, from the stream or from what a raw-body middleware left in
 * `req.body`, and calls `done` once. Callbacks rather than a promise: this runs for every
 * delivery, and the receiver's benchmark counts each allocation and microtask.
 * Over `limit`, buffering stops at once and the caller answers 413 with Connection: close, so
 * the socket is closed after the answer instead of kept alive to read the rest. Past `timeoutMs`
 * the same, as an unreadable body (400).
 */
function readNodeBody(
  req: IncomingMessage,
  limit: number,
  timeoutMs: number,
  done: (body: BodyRead) => void,
): void {
  const parsed = (req as IncomingMessage & { body?: unknown }).body;
  // express.raw() leaves a Buffer, express.text() a string: both still hold the exact body.
  if (ArrayBuffer.isView(parsed) || isArrayBuffer(parsed) || typeof parsed === 'string') {
    const bytes =
      typeof parsed === 'string'
        ? Buffer.from(parsed, 'utf8')
        : ArrayBuffer.isView(parsed)
          ? new Uint8Array(parsed.buffer, parsed.byteOffset, parsed.byteLength)
          : new Uint8Array(parsed);
    return done(bytes.byteLength > limit ? { kind: 'too-large' } : { kind: 'bytes', bytes });
  }
  // The stream was read by someone else (express.json() and its object in req.body, or any
  // other consumer): the exact bytes are gone. Body-parser 1.x also sets req.body = {} without
  // reading when the content type does not match; the stream is intact then and is read here.
  if (req.readableDidRead || req.readableEnded) return done({ kind: 'already-parsed' });

  const chunks: Buffer[] = [];
  let length = 0;
  // `done` runs once even if 'error' and 'close' both fire. The listeners stay on (they go with
  // the request) rather than come off one by one on every delivery: cheaper, and a late 'error'
  // still has a listener, so it can never be thrown as unhandled.
  let settled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const finish = (result: BodyRead): void => {
    if (settled) return;
    settled = true;
    if (timer !== undefined) clearTimeout(timer);
    done(result);
  };
  const onData = (chunk: Buffer): void => {
    length += chunk.length;
    if (length > limit) {
      // Stop buffering the rest; the answer closes the connection.
      chunks.length = 0;
      req.off('data', onData);
      finish({ kind: 'too-large' });
      return;
    }
    chunks.push(chunk);
  };
  // One chunk is the common case for a webhook: use it as is rather than copy it.
  const onEnd = (): void =>
    finish({
      kind: 'bytes',
      bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length),
    });
  const onError = (error: unknown): void => finish({ kind: 'unreadable', error });
  // Closed before the end: the client gave up. Without this `done` would never run.
  const onClose = (): void => {
    if (!req.complete) {
      finish({ kind: 'unreadable', error: new Error('the client aborted the request') });
    }
  };
  // A body trickled a byte at a time would hold the delivery until the server's own deadline,
  // which a server the merchant made may not have set (Node's default is 300 s). The timer is
  // armed only for a body not all here by the next tick: node:http calls the handler amid
  // parsing what the socket read and hands over the rest of that read first, so a body sent
  // with its headers (nearly every delivery) has all its Content-Length bytes by then (its
  // 'end' follows with no further read) and needs no timer: that spares a timer armed and
  // cleared, about 1.5% of the receiver's time (`npm run bench -- webhook`). Any other body
  // (chunked, after Expect: 100-continue, slow or trickled) is timed from that tick.
  const armTimer = (): void => {
    if (settled || req.complete || length === Number(req.headers['content-length'])) return;
    timer = setTimeout(() => {
      chunks.length = 0;
      req.off('data', onData);
      finish({
        kind: 'unreadable',
        error: new WebhookRequestError(
          `the request body did not arrive within ${timeoutMs} ms (bodyTimeoutMs): the connection is closed`,
          400,
        ),
      });
    }, timeoutMs);
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('close', onClose);
  process.nextTick(armTimer);
}

// A ready server -------------------------------------------------------------------------------

/** Options of listenWebhook: the receiver's, and where and how the server listens. */
export interface WebhookServerOptions extends WebhookHandlerOptions {
  /** The port to listen on; 0 picks a free one (see `url`). */
  port: number;
  /**
   * The address to bind. Only this machine can reach the default: give `'0.0.0.0'` (or `'::'`)
   * deliberately when the service must reach this server directly rather than through a
   * proxy on the same machine.
   * @default '127.0.0.1'
   */
  host?: string;
  /**
   * The path deliveries arrive at; any other path is answered 404.
   * @default '/webhooks/servicepay'
   */
  path?: string;
  /**
   * Longest time for the request line and headers; a client that sends them slower is cut.
   * @default 10000
   */
  headersTimeoutMs?: number;
  /**
   * Longest time for the whole request, body included; a client that trickles its body is
   * answered 408 and cut. A 64 KiB body takes a fraction of this on any real link. It does not
   * limit onNotification, which runs after the request was received.
   * @default 15000
   */
  requestTimeoutMs?: number;
  /**
   * How long an idle connection is kept open for the next delivery.
   * @default 5000
   */
  keepAliveTimeoutMs?: number;
  /**
   * How long close() waits for deliveries whose onNotification is still running. Past it, each
   * is answered 503 (so the service resends it), its claim is released, and close() resolves;
   * the handler itself is not stopped (JavaScript cannot stop a running call) and may still
   * finish, concurrently with a resend handled elsewhere.
   * @default 10000
   */
  closeTimeoutMs?: number;
}

/** A listening webhook server. */
export interface WebhookServer {
  /** The node:http server, for anything not covered here. */
  readonly server: Server;
  /** The address deliveries are sent to, e.g. `http://127.0.0.1:8080/webhooks/servicepay`. */
  readonly url: string;
  /**
   * Stops accepting connections, closes idle ones, lets running deliveries finish for up to
   * closeTimeoutMs (then answers them 503 and releases their claims), and resolves once every
   * connection is closed.
   */
  close(): Promise<void>;
}

/** The timeouts listenWebhook sets; docs/webhooks.md gives the same figures for other servers. */
const WEBHOOK_SERVER_TIMEOUTS = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  closeTimeoutMs: 10_000,
});

/**
 * Starts a node:http server that receives webhooks at `path`, bound to 127.0.0.1 unless told
 * otherwise, with timeouts that cut slow clients: Node's own defaults would let a trickled
 * body hold a connection for 300 s.
 *
 * @throws WebhookConfigError or WebhookKeyError (synchronously) when the options are unusable.
 * @returns a promise of the listening server; rejects when the port cannot be bound.
 */
export function listenWebhook(options: WebhookServerOptions): Promise<WebhookServer> {
  const {
    port,
    host = '127.0.0.1',
    path = '/webhooks/servicepay',
    headersTimeoutMs = WEBHOOK_SERVER_TIMEOUTS.headersTimeoutMs,
    requestTimeoutMs = WEBHOOK_SERVER_TIMEOUTS.requestTimeoutMs,
    keepAliveTimeoutMs = WEBHOOK_SERVER_TIMEOUTS.keepAliveTimeoutMs,
    closeTimeoutMs = WEBHOOK_SERVER_TIMEOUTS.closeTimeoutMs,
    ...receiverOptions
  } = options;
  const { handler, receiver } = nodeReceiver(receiverOptions);
  const server = createServer(
    {
      // Node refuses a headers timeout longer than the request timeout.
      headersTimeout: Math.min(headersTimeoutMs, requestTimeoutMs),
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      // How often Node checks those deadlines (default 30 s, which would let a slow client
      // overstay its deadline by as much).
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, requestTimeoutMs / 4)),
    },
    (req, res) => {
      const url = req.url ?? '/';
      const query = url.indexOf('?');
      if ((query === -1 ? url : url.slice(0, query)) === path) return handler(req, res);
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end('not found');
    },
  );
  // Node answers "Expect: 100-continue" itself unless the server listens for checkContinue:
  // then the handler invites the body only once the request passed its checks (size above all).
  server.on('checkContinue', (req: ContinueRequest, res: ServerResponse) => {
    req[EXPECTS_CONTINUE] = true;
    server.emit('request', req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      let closing: Promise<void> | undefined;
      resolve({
        server,
        url: `http://${shown}:${address.port}${path}`,
        close: () =>
          (closing ??= new Promise<void>((done, fail) => {
            // Past closeTimeoutMs, the deliveries still running are answered 503 (with
            // Connection: close) and their claims released; their sockets then close.
            const timer = setTimeout(() => {
              void receiver.abandon().then(() => setImmediate(() => server.closeIdleConnections()));
            }, closeTimeoutMs);
            timer.unref();
            server.close((error) => {
              clearTimeout(timer);
              if (error) fail(error);
              else done();
            });
            server.closeIdleConnections();
          })),
      });
    });
  });
}
