/**
 * The payment status endpoint: what the shopper's return page asks to learn a payment's
 * outcome, from the outcomes the receiver recorded in the shared store (outcomes.ts).
 *
 *   GET <mounted path>?paymentId=<id>&merchantPaymentId=<id>
 *   Accept: application/json (or none)  -> 200 {"status":<PaymentStatus of core/protocol.ts>}
 *   Accept: text/event-stream           -> Server-Sent Events, each `data` that same JSON
 *
 * It is no oracle for other people's payments: an unknown payment, a mismatched pair of ids and
 * a payment whose outcome is not recorded yet all get the pending answer, byte for byte (and a
 * stream that stays pending until its bound). Only the status leaves the server, unless the
 * merchant maps more with `expose`.
 *
 * Runtime-neutral: the node:http adapter (status-node.ts) and the Fetch adapter
 * (status-fetch.ts) only read the request and write what this module decides; its bounds are
 * in status-limits.ts.
 */
import { isPaymentId } from '../../core/protocol';
import { WebhookConfigError } from '../errors';
import { prefixed } from '../prefixed';
import { OUTCOME_METHODS, recordsOutcomes } from '../stores/outcomes';
import type { OutcomeStore, PaymentOutcome } from '../stores/outcomes';
import { callback, checkOption } from '../option-checks';
import { exposedAnswer } from './status-expose';
import type { ExposedFields } from './status-expose';
import { createStreamSlots, MAX_STREAMS_PER_CLIENT, positiveInteger } from './status-limits';
import type { TelemetryOptions } from '../telemetry';

/** Options of createPaymentStatusHandler and createFetchPaymentStatusHandler. */
export interface PaymentStatusHandlerOptions extends TelemetryOptions {
  /**
   * The store the webhook receiver records outcomes in: the same instance (memory) or the same
   * database (PostgreSQL, Redis) as the receiver's `store`.
   */
  store: OutcomeStore;
  /**
   * Most event streams open at once in this process; past it a stream request is answered 503
   * with Retry-After (the return page then polls).
   * @default 10000
   */
  maxStreams?: number;
  /**
   * Most event streams one client may hold open at once, so that one client cannot take every
   * place of `maxStreams`; past it that client is answered 503 with Retry-After (and polls).
   * Clients are told apart by `streamClient`.
   * @default 20
   */
  maxStreamsPerClient?: number;
  /**
   * Longest a stream stays open waiting for a final status; the client then reconnects or
   * polls. Checked at each heartbeat, so a stream ends within heartbeatMs after it.
   * @default 300000 (5 minutes)
   */
  streamTimeoutMs?: number;
  /**
   * How often a waiting stream gets a comment line, so proxies and load balancers do not close
   * it as idle.
   * @default 15000
   */
  heartbeatMs?: number;
  /**
   * Extra fields for a final status, from your own records: `paid` (what was paid: amount,
   * payee, reference), which the result page shows, and any other field for your own page's
   * code. Nothing else about the payment leaves the server by default. The answer's `status`
   * cannot be overridden. The answer must fit in 1024 bytes of JSON, all the return page
   * reads: a longer one is sent as the status alone, and `onError` gets a WebhookConfigError
   * naming the bound.
   */
  expose?: (
    outcome: PaymentOutcome,
  ) => ExposedFields | undefined | Promise<ExposedFields | undefined>;
  /**
   * Called with errors of the store or of `expose`; the shopper's page gets the pending answer
   * (or a 503) meanwhile.
   * @default console.error (after "servicepay: payment status endpoint:")
   */
  onError?: (error: unknown) => void;
}

/** The payment a request asks about. */
export interface StatusQuery {
  readonly paymentId: string;
  readonly merchantPaymentId: string;
}

/** An answer that is not a stream: status, headers, body. */
export interface StatusAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Where a stream's bytes go: the adapter's response. */
export interface StreamSink {
  write(chunk: string): void;
  end(): void;
}

/** The JSON of a payment that has no recorded outcome, or not one these ids may see. */
export const PENDING_BODY = '{"status":"PENDING"}';

const JSON_HEADERS = Object.freeze({
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
});

export const STREAM_HEADERS = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  // nginx and similar proxies buffer responses unless told not to.
  'x-accel-buffering': 'no',
});

/** How long an EventSource waits before reconnecting after the stream ends (ms). */
const RECONNECT_MS = 2000;

function plain(status: number, body: string, extra: Record<string, string> = {}): StatusAnswer {
  return Object.freeze({
    status,
    headers: Object.freeze({
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...extra,
    }),
    body,
  });
}

const METHOD_NOT_ALLOWED = plain(405, 'method not allowed: the payment status is read with GET', {
  allow: 'GET',
});
const BAD_QUERY = plain(
  400,
  'bad request: give paymentId and merchantPaymentId as query parameters',
);
const TOO_MANY_STREAMS = plain(503, 'too many open status streams; retry later', {
  'retry-after': '5',
});
const UNAVAILABLE = plain(503, 'temporarily unavailable; retry later', { 'retry-after': '2' });
const PENDING_ANSWER: StatusAnswer = Object.freeze({
  status: 200,
  headers: JSON_HEADERS,
  body: PENDING_BODY,
});

interface OpenStream {
  readonly sink: StreamSink;
  readonly deadline: number;
  /** Ends the stream: unsubscribes, ends the sink (once). */
  finish(): void;
}

/** The endpoint's decisions, shared by both adapters. */
export interface StatusCore {
  /** An answer to give before anything is read, or null to go on (GET with a good query). */
  check(method: string | undefined, url: string): StatusAnswer | StatusQuery;
  /** Whether the client asked for an event stream. */
  wantsStream(accept: string | null | undefined): boolean;
  /** The JSON answer for a query. Never rejects. */
  answer(query: StatusQuery): Promise<StatusAnswer>;
  /**
   * Reserves a stream for `client` (undefined: unknown), or answers 503 when maxStreams are
   * open, or maxStreamsPerClient of this client's. A reservation must be opened with `stream`
   * (or given back with `cancel`), for the same client.
   */
  reserve(client: string | undefined): StatusAnswer | null;
  /** Gives back a reservation that will not be opened. */
  cancel(client: string | undefined): void;
  /**
   * Runs a reserved stream: subscribes first, then reads the current state, writes it, and
   * the final status the moment it is recorded. Resolves with a function that ends it early
   * (the client went away). Never rejects.
   */
  stream(query: StatusQuery, sink: StreamSink, client: string | undefined): Promise<() => void>;
  /**
   * Who a stream request comes from, for maxStreamsPerClient: the merchant's `streamClient`
   * (a throw is reported and counts the request in the total only), else `fallback()`.
   */
  client(request: unknown, fallback: () => string | undefined): string | undefined;
  /** Ends every open stream and stops the heartbeat. */
  close(): Promise<void>;
}

export function createStatusCore(options: PaymentStatusHandlerOptions, entry: string): StatusCore {
  const { store } = options ?? ({} as PaymentStatusHandlerOptions);
  if (!recordsOutcomes(store)) {
    const missing = OUTCOME_METHODS.filter(
      (method) =>
        typeof (store as unknown as Record<string, unknown> | null)?.[method] !== 'function',
    );
    throw new WebhookConfigError(
      store == null
        ? `${entry} needs { store }, the store your webhook receiver records outcomes in (MemoryIdempotencyStore, createPostgresStore or createRedisStore).`
        : `${entry}'s store does not record payment outcomes: it lacks ${missing.join(', ')}. Use the receiver's MemoryIdempotencyStore, createPostgresStore or createRedisStore, or add those methods to your store (docs/after-the-bank.md).`,
      'store',
    );
  }
  const slots = createStreamSlots(
    positiveInteger(options.maxStreams, 10_000, 'maxStreams', entry),
    positiveInteger(
      options.maxStreamsPerClient,
      MAX_STREAMS_PER_CLIENT,
      'maxStreamsPerClient',
      entry,
    ),
  );
  const streamTimeoutMs = positiveInteger(
    options.streamTimeoutMs,
    300_000,
    'streamTimeoutMs',
    entry,
  );
  const heartbeatMs = positiveInteger(options.heartbeatMs, 15_000, 'heartbeatMs', entry);
  for (const name of ['expose', 'streamClient'] as const) {
    const value = (options as unknown as Record<string, unknown>)[name];
    checkOption(entry, name, value, undefined, callback('a function'));
  }
  const streamClient = (options as { streamClient?: (request: unknown) => unknown }).streamClient;
  const onError =
    options.onError ??
    ((error: unknown) => console.error(prefixed('payment status endpoint:'), error));
  const report = (error: unknown): void => {
    try {
      onError(error);
    } catch {
      // A logging hook never changes an answer.
    }
  };

  const open = new Set<OpenStream>();
  let closed = false;
  let ticker: ReturnType<typeof setInterval> | undefined;

  /** One timer for every stream: heartbeats and deadlines, not a timer per subscriber. */
  function tick(): void {
    const now = Date.now();
    for (const stream of open) {
      if (stream.deadline <= now) stream.finish();
      else stream.sink.write(': waiting\n\n');
    }
    if (open.size === 0) stopTicking();
  }
  function startTicking(): void {
    if (ticker !== undefined) return;
    ticker = setInterval(tick, heartbeatMs);
    (ticker as { unref?: () => void }).unref?.();
  }
  function stopTicking(): void {
    if (ticker === undefined) return;
    clearInterval(ticker);
    ticker = undefined;
  }

  /** The JSON for what these ids may see of `outcome`. */
  async function bodyFor(query: StatusQuery, outcome: PaymentOutcome | null): Promise<string> {
    if (outcome === null || outcome.merchantPaymentId !== query.merchantPaymentId) {
      return PENDING_BODY;
    }
    let extra: ExposedFields | undefined;
    if (options.expose !== undefined) {
      try {
        extra = await options.expose(outcome);
      } catch (error) {
        report(error);
      }
    }
    return exposedAnswer(outcome.status, extra, report, entry);
  }

  return {
    check(method, url) {
      if (method !== 'GET') return METHOD_NOT_ALLOWED;
      const search = url.indexOf('?');
      const params = new URLSearchParams(search === -1 ? '' : url.slice(search + 1));
      const paymentId = params.get('paymentId');
      const merchantPaymentId = params.get('merchantPaymentId');
      if (
        paymentId === null ||
        merchantPaymentId === null ||
        // The component's own rule: every id createPayment accepts finds its outcome here.
        !isPaymentId(paymentId) ||
        !isPaymentId(merchantPaymentId)
      ) {
        return BAD_QUERY;
      }
      return { paymentId, merchantPaymentId };
    },

    wantsStream: (accept) => typeof accept === 'string' && accept.includes('text/event-stream'),

    async answer(query) {
      let outcome: PaymentOutcome | null;
      try {
        outcome = await store.readOutcome(query.paymentId);
      } catch (error) {
        report(error);
        return UNAVAILABLE;
      }
      const body = await bodyFor(query, outcome);
      return body === PENDING_BODY ? PENDING_ANSWER : { status: 200, headers: JSON_HEADERS, body };
    },

    reserve(client) {
      return closed || !slots.take(client) ? TOO_MANY_STREAMS : null;
    },

    cancel: (client) => slots.give(client),

    async stream(query, sink, client) {
      let done = false;
      let unsubscribe: (() => void) | undefined;
      const stream: OpenStream = {
        sink,
        deadline: Date.now() + streamTimeoutMs,
        finish() {
          if (done) return;
          done = true;
          open.delete(stream);
          slots.give(client);
          unsubscribe?.();
          try {
            sink.end();
          } catch {
            // The client is gone already.
          }
        },
      };
      open.add(stream);
      startTicking();
      sink.write(`retry: ${RECONNECT_MS}\n\n`);

      let sent: string | undefined;
      const send = (body: string): void => {
        if (done || body === sent) return;
        sent = body;
        sink.write(`data: ${body}\n\n`);
        if (body !== PENDING_BODY) stream.finish();
      };
      const deliver = (outcome: PaymentOutcome): void => {
        // A final status for other ids leaves this stream pending, as an unknown payment's.
        void bodyFor(query, outcome).then((body) => {
          if (body !== PENDING_BODY) send(body);
        });
      };
      const current = async () => bodyFor(query, await store.readOutcome(query.paymentId));
      // No live outcome to promise (the store cannot listen): the current status, the end, a poll.
      const end = () => void current().then(send, stream.finish).finally(stream.finish);
      try {
        // Subscribe, then read: an outcome recorded in between is caught by one or the other.
        const off = await store.subscribeOutcome(query.paymentId, deliver, end);
        if (done) off();
        else unsubscribe = off;
        send(await current());
      } catch (error) {
        report(error);
        end();
      }
      if (closed) stream.finish();
      return () => stream.finish();
    },

    client(request, fallback) {
      if (!streamClient) return fallback();
      try {
        const client = streamClient(request);
        return typeof client == 'string' && client ? client : undefined;
      } catch (error) {
        report(error);
      }
    },

    async close() {
      closed = true;
      for (const stream of [...open]) stream.finish();
      stopTicking();
    },
  };
}
