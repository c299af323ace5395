import { readText } from './http-transport';
import type { PaymentResultMessages } from './messages';
import { decodeStatusAnswer, MAX_STATUS_ANSWER_BYTES, MESSAGE_PREFIX as PREFIX } from './protocol';
import type { FinalPaymentStatus } from './protocol';
import { checkIds, takeReturnedPayment } from './saved-payment';
import { subscribe } from './subscribable';
import type { Listeners } from './subscribable';
import type { PaymentIds } from './saved-payment';

// The result page's engine, with no UI: which payment to follow, and what the shop's own
// status endpoint (createPaymentStatusHandler in servicepay/webhook) says about it. Only the
// endpoint's answers count: the return address is the shopper's browser talking, and anyone
// can type it, so it is used to find the payment and never to decide its outcome.

/**
 * What the page shows: `waiting` for the bank's word, `received` (COMPLETED),
 * `not-completed` (FAILED), `needs-review` (NEEDS_REVIEW: the payment does not match its
 * order, and the shop checks it), `not-heard` after the bounded wait, `not-found` with no
 * payment.
 */
export type PaymentResultState =
  'waiting' | 'received' | 'not-completed' | 'needs-review' | 'not-heard' | 'not-found';

/** What `onResult` receives, once, when the outcome is known. */
export interface PaymentResultOutcome extends PaymentIds {
  status: FinalPaymentStatus;
}

/** The state to render. A new object after every change (for useSyncExternalStore). */
export interface PaymentResultSnapshot {
  state: PaymentResultState;
  /** The payment followed; null until it is found, and when it is not. */
  payment: PaymentIds | null;
}

export interface PaymentResultOptions {
  /**
   * Where the shop's status endpoint is mounted (`createPaymentStatusHandler`), e.g.
   * `/api/payments/status`; relative to the page. Another origin must allow this page (CORS).
   */
  statusUrl: string;
  /**
   * The payment to follow, when the page knows it (from its own route, say). Otherwise it is
   * the one the Pay component saved in this tab before opening the bank, else the return
   * address's (`?paymentId=…&merchantPaymentId=…`, as the sandbox sends the shopper back),
   * whose ids then leave the address (docs/after-the-bank.md). Read once.
   */
  payment?: PaymentIds;
  /**
   * Called once, when the endpoint gives the final status (`COMPLETED`, `FAILED` or
   * `NEEDS_REVIEW`): clear the basket, send analytics. Never for `not-heard` or `not-found`,
   * which are not outcomes.
   */
  onResult?: (outcome: PaymentResultOutcome) => void;
  /**
   * What "Try again" does after a payment that was not completed, e.g. back to the bank step.
   * Without it, no Try again is offered.
   */
  onTryAgain?: () => void;
  /** Stops waiting (state `not-heard`, with "Check again") after this many ms. @default 60000 */
  notHeardAfterMs?: number;
  /**
   * Listen with an event stream (`EventSource`) where the browser has one; `false` asks with
   * polling only (behind a proxy that buffers streams). Polling is also the fallback whenever
   * a stream fails. @default true
   */
  eventSource?: boolean;
  /** A fetch implementation for polling. @default fetch (the global one) */
  fetch?: typeof fetch;
}

export interface PaymentResultController {
  getState(): PaymentResultSnapshot;
  /** Calls `listener` after every state change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Replaces the options (callbacks, the bound); `statusUrl` and `payment` are read once. */
  setOptions(options: PaymentResultOptions): void;
  /**
   * The page shows the result: finds the payment and follows it (the first time), or resumes
   * waiting. Touches the page (location, storage, network) only here, never at creation.
   * Returns the unmount function, which stops asking. Named as the session's `mount`: one
   * binding hook drives both (src/react/useController.ts).
   */
  mount(): () => void;
  /** After `not-heard`: waits again, for another bounded while. */
  checkAgain(): void;
  /** After `not-completed`: calls `onTryAgain`. */
  tryAgain(): void;
}

/** How long the page waits before `not-heard`: a slow bank and the first webhook retries. */
export const NOT_HEARD_AFTER_MS = 60_000;
/** Each poll gives up after this long (a stalled connection), then is asked again. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Anything bigger is not the endpoint's answer (which it bounds so). */
const MAX_ANSWER_BYTES = MAX_STATUS_ANSWER_BYTES;
/** 1 s, 2 s, 4 s, then every 5 s: quick when it matters, gentle while the bank takes its time. */
const pollDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 5000);

/** The state each final status shows. */
const FINAL_STATES = {
  COMPLETED: 'received',
  FAILED: 'not-completed',
  NEEDS_REVIEW: 'needs-review',
} as const satisfies Record<FinalPaymentStatus, PaymentResultState>;

/**
 * The result page's controller, shared by `<PaymentResult>`, `usePaymentResult` and
 * `ServiceResult`. Creating one has no side effects (safe while rendering, on the server).
 * @throws TypeError when `statusUrl` is not a non-empty string: a mistake in the page's code.
 */
export function createPaymentResult(initial: PaymentResultOptions): PaymentResultController {
  let options = initial;
  const statusUrl = (options as Partial<PaymentResultOptions> | undefined)?.statusUrl;
  let usable = typeof statusUrl == 'string' && !!statusUrl;
  try {
    // Relative addresses resolve against the page later; this only refuses malformed ones.
    if (usable) new URL(statusUrl!, 'http://page.invalid/');
  } catch {
    usable = false;
  }
  if (!usable) {
    // Two lengths (docs/decisions.md): the whole sentence in development, its gist in production.
    let message = `${PREFIX}the payment result needs statusUrl`;
    try {
      if (process.env.NODE_ENV !== 'production') {
        message += `: the address where your server mounts createPaymentStatusHandler, e.g. '/api/payments/status'`;
      }
    } catch {
      // No bundler: the gist.
    }
    throw new TypeError(message);
  }
  const listeners: Listeners = new Set();
  let snapshot: PaymentResultSnapshot = {
    state: 'waiting',
    payment: checkIds(options.payment?.paymentId, options.payment?.merchantPaymentId),
  };
  let running = false;
  let reported = false;
  /** Ends the current round of waiting (stream, poll, timers); set while one runs. */
  let stopRound: (() => void) | undefined;

  function set(state: PaymentResultState, payment = snapshot.payment): void {
    snapshot = { state, payment };
    listeners.forEach((listener) => listener());
  }

  // Merchant callbacks must never break the page, nor the page this controller.
  function callMerchant(name: 'onResult' | 'onTryAgain', arg?: PaymentResultOutcome): void {
    try {
      (options[name] as ((value?: PaymentResultOutcome) => void) | undefined)?.(arg);
    } catch (error) {
      console.error(`${PREFIX}${name} threw`, error);
    }
  }

  function endRound(): void {
    stopRound?.();
    stopRound = undefined;
  }

  /** One round of waiting for `payment`: until a final status, or the bound. */
  function follow(payment: PaymentIds): () => void {
    const url = new URL(statusUrl!, globalThis.location?.href);
    url.searchParams.set('paymentId', payment.paymentId);
    url.searchParams.set('merchantPaymentId', payment.merchantPaymentId);
    let done = false;
    let source: EventSource | undefined;
    let inFlight: AbortController | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let warned = false;
    const stop = () => {
      done = true;
      source?.close();
      inFlight?.abort();
      clearTimeout(timer);
      clearTimeout(deadline);
    };
    /** Acts on one answer of the endpoint: a final status ends the wait. */
    const answer = (text: string) => {
      const status = decodeStatusAnswer(text);
      if (done || !status || status === 'PENDING') return;
      endRound();
      set(FINAL_STATES[status]);
      if (reported) return;
      reported = true;
      callMerchant('onResult', { ...payment, status });
    };
    // Polling: a fresh, bounded request each time, with backoff between them.
    const poll = async (attempt: number) => {
      const controller = (inFlight = new AbortController());
      const timeout = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
      try {
        const response = await (options.fetch ?? fetch)(url.href, {
          headers: { Accept: 'application/json' },
          signal: controller.signal,
        });
        if (response.ok) {
          const text = await readText(response, controller.signal, MAX_ANSWER_BYTES);
          // Read to its end: a final answer's stop() must not abort it (marked "(canceled)").
          inFlight = undefined;
          if (text !== undefined) answer(text);
        } else if (!warned && response.status !== 503) {
          warned = true;
          try {
            if (process.env.NODE_ENV !== 'production') {
              console.warn(
                `${PREFIX}the status endpoint answered ${response.status} at ${url.origin}${url.pathname}: mount createPaymentStatusHandler there, or pass its address as statusUrl`,
              );
            }
          } catch {
            // No bundler: no warning.
          }
        }
      } catch {
        // A dropped connection, a stall (timed out above), or our own stop: asked again below.
      } finally {
        clearTimeout(timeout);
        // An exchange left open (an error status's unread body) is closed; a complete one is not
        // touched: aborted after its last byte, Chromium lists it as cancelled.
        if (inFlight === controller) controller.abort();
      }
      if (!done) timer = setTimeout(() => void poll(attempt + 1), pollDelay(attempt));
    };
    const bound = options.notHeardAfterMs;
    const deadline = setTimeout(
      () => {
        endRound();
        set('not-heard');
      },
      // setTimeout takes at most 2^31 - 1 ms (about 24 days); longer would fire at once.
      typeof bound == 'number' && bound > 0 ? Math.min(bound, 2 ** 31 - 1) : NOT_HEARD_AFTER_MS,
    );
    try {
      if (options.eventSource !== false && typeof EventSource == 'function') {
        source = new EventSource(url.href);
      }
    } catch {
      // EventSource refused the address (a SyntaxError, say, in an odd browser): poll instead.
    }
    const stream = source;
    if (!stream) void poll(0);
    else {
      // The endpoint sends the current status at once, then the final one when it is recorded.
      stream.onmessage = (event: MessageEvent) => {
        // An event's size cannot be bounded here; the round's deadline bounds the stream.
        if (typeof event.data == 'string' && event.data.length <= MAX_ANSWER_BYTES) {
          answer(event.data);
        }
      };
      // Refused (503 past the server's limit, an error status, no stream at all), cut off, or
      // ended by the server after its own bound: the rest of this round polls.
      stream.onerror = () => {
        stream.close();
        if (done) return;
        source = undefined;
        void poll(0);
      };
    }
    return stop;
  }

  return {
    getState: () => snapshot,

    subscribe: subscribe(listeners),

    setOptions(next) {
      if (next && typeof next == 'object') options = next;
    },

    mount() {
      if (!running) {
        running = true;
        if (snapshot.state === 'waiting') {
          const payment = snapshot.payment ?? takeReturnedPayment();
          if (!payment) set('not-found', null);
          else {
            if (payment !== snapshot.payment) set('waiting', payment);
            stopRound = follow(payment);
          }
        }
      }
      return () => {
        running = false;
        endRound();
      };
    },

    checkAgain() {
      if (!running || snapshot.state !== 'not-heard' || !snapshot.payment) return;
      set('waiting');
      stopRound = follow(snapshot.payment);
    },

    tryAgain: () => callMerchant('onTryAgain'),
  };
}

/** A state's key in the messages table. */
type StateKey = Exclude<keyof PaymentResultMessages, `${string}Text` | 'tryAgain' | 'checkAgain'>;

/** The shopper's words for a state: its heading and the sentence under it. */
export function resultText(
  state: PaymentResultState,
  messages: PaymentResultMessages,
): { heading: string; text: string } {
  // The table's keys are the states in camelCase: `not-heard` → notHeard, notHeardText.
  const key = state.replace(/-./g, (dash) => dash[1]!.toUpperCase()) as StateKey;
  return { heading: messages[key], text: messages[`${key}Text`] };
}
