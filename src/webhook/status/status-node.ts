/**
 * The payment status endpoint's node:http / Express front door (status.ts decides).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createStatusCore, STREAM_HEADERS } from './status';
import { observed } from './status-telemetry';
import type { PaymentStatusHandlerOptions, StatusAnswer } from './status';
import { clientOfAddress } from './status-limits';

/** Options of createPaymentStatusHandler. */
export interface NodePaymentStatusHandlerOptions extends PaymentStatusHandlerOptions {
  /**
   * Who a stream request comes from, for `maxStreamsPerClient`. Behind a proxy or load
   * balancer every request comes from its address: return the shopper's as your proxy tells it
   * (Express with `trust proxy`: `(req) => req.ip`). `undefined` counts the request in
   * `maxStreams` only.
   * @default the connection's remote address (IPv6 by its /64)
   */
  streamClient?: (req: IncomingMessage) => string | undefined;
}

/** A node:http request listener (also an Express handler) for the payment status. */
export interface PaymentStatusHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Ends every open event stream of this handler. */
  close(): Promise<void>;
}

/**
 * The payment status endpoint for node:http and Express: `GET ?paymentId=…&merchantPaymentId=…`
 * answers `{"status":"PENDING"|"COMPLETED"|"FAILED"|"NEEDS_REVIEW"}` as JSON, or as Server-Sent
 * Events when the client accepts `text/event-stream` (docs/after-the-bank.md).
 *
 * @throws WebhookConfigError when the store records no outcomes or an option is unusable.
 */
export function createPaymentStatusHandler(
  options: NodePaymentStatusHandlerOptions,
): PaymentStatusHandler {
  const core = observed(createStatusCore)(options, 'createPaymentStatusHandler');
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const checked = core.check(req.method, req.url ?? '/');
    if ('status' in checked) return writeNode(res, checked);
    if (!core.wantsStream(req.headers.accept)) {
      void core.answer(checked).then((answer) => writeNode(res, answer));
      return;
    }
    const client = core.client(req, () => clientOfAddress(req.socket.remoteAddress));
    const refused = core.reserve(client);
    if (refused !== null) return writeNode(res, refused);
    res.writeHead(200, STREAM_HEADERS);
    // The headers now, before any event: the client knows the stream is open.
    res.flushHeaders();
    let end: (() => void) | undefined;
    let gone = false;
    res.on('close', () => {
      gone = true;
      end?.();
    });
    void core
      .stream(
        checked,
        {
          write: (chunk) => {
            res.write(chunk);
          },
          end: () => res.end(),
        },
        client,
      )
      .then((stop) => {
        end = stop;
        if (gone) stop();
      });
  };
  return Object.assign(handler, { close: () => core.close() });
}

function writeNode(res: ServerResponse, answer: StatusAnswer): void {
  if (res.headersSent || res.writableEnded) return;
  try {
    res.writeHead(answer.status, {
      ...answer.headers,
      'content-length': Buffer.byteLength(answer.body),
    });
    res.end(answer.body);
  } catch {
    // The socket is gone.
  }
}
