import { reportThrown, warn } from './console';
import { said } from './protocol';
import type { FinalPaymentStatus } from './protocol';
import { listen } from './result-listening';
import { initialResult, isFinal, reduceResult } from './result-machine';
import type { PaymentResultEvent, PaymentResultSnapshot } from './result-machine';
import { checkIds, takeReturnedPayment } from './saved-payment';
import { subscribe } from './subscribable';
import type { Listeners } from './subscribable';
import type { PaymentIds } from './saved-payment';

export { resultText } from './result-machine';
export type { PaymentResultState, PaymentResultSnapshot } from './result-machine';

// The result page's engine, with no UI: which payment to follow, and what the shop's own
// status endpoint (createPaymentStatusHandler in servicepay/webhook) says about it. Only the
// endpoint's answers count: the return address is the shopper's browser talking, and anyone
// can type it, so it is used to find the payment and never to decide its outcome. The states
// and the events that change them are ./result-machine; how the page listens, from the first
// second to the horizon, is ./result-listening; this is the shell that joins them to the page.

/** What `onResult` receives, once, when the outcome is known. */
export interface PaymentResultOutcome extends PaymentIds {
  status: FinalPaymentStatus;
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
   * and the page's address then names it, so that a reload, a bookmark or a shared link finds
   * it again (docs/after-the-bank.md). Read once.
   */
  payment?: PaymentIds;
  /**
   * Called once, when the endpoint gives the final status (`COMPLETED`, `FAILED` or
   * `NEEDS_REVIEW`): clear the basket, send analytics. Never for `still-confirming`,
   * `not-heard` or `not-found`, which are not outcomes.
   */
  onResult?: (outcome: PaymentResultOutcome) => void;
  /**
   * What "Try again" does after a payment that was not completed, e.g. back to the bank step.
   * Without it, no Try again is offered.
   */
  onTryAgain?: () => void;
  /**
   * After this many ms with no final status the page says the bank is still confirming
   * (`still-confirming`), that the shopper may close it, and keeps listening. With an event
   * stream, at least 25000 (the time a status endpoint may take to notice that its store's
   * listening connection died): a lower figure is raised to it, with a warning in development.
   * @default 60000
   */
  notHeardAfterMs?: number;
  /**
   * The horizon: after this many ms with no final status the page stops listening and says it
   * has not heard (`not-heard`, with "Check again"), at the first look at or after it. Until
   * then it polls at least once a minute. Never before `notHeardAfterMs`.
   * @default 1800000 (30 minutes)
   */
  stopListeningAfterMs?: number;
  /**
   * Listen with an event stream (`EventSource`) where the browser has one, until
   * `notHeardAfterMs`; `false` asks with polling only (behind a proxy that buffers streams).
   * Polling is also the fallback whenever a stream fails. @default true
   */
  eventSource?: boolean;
  /** A fetch implementation for polling. @default fetch (the global one) */
  fetch?: typeof fetch;
}

export interface PaymentResultController {
  getState(): PaymentResultSnapshot;
  /** Calls `listener` after every state change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /**
   * Replaces the options: callbacks are read when called, the bounds and the means of listening
   * when a listening starts (mount, Check again); `statusUrl` and `payment` are read once.
   */
  setOptions(options: PaymentResultOptions): void;
  /**
   * The page shows the result: finds the payment and follows it (the first time), or resumes
   * listening. Touches the page (location, storage, network) only here, never at creation.
   * Returns the unmount function, which stops asking. Named as the session's `mount`: one
   * binding hook drives both (src/react/useController.ts).
   */
  mount(): () => void;
  /** After `not-heard`: listens again, from the start, for another bounded while. */
  checkAgain(): void;
  /** After `not-completed`: calls `onTryAgain`. */
  tryAgain(): void;
}

/** When the page says the bank is still confirming: a slow bank and the first webhook retries. */
export const NOT_HEARD_AFTER_MS = 60_000;
/**
 * When the page stops listening: long enough for the bank's own checks, which often take
 * minutes; an outcome that comes later still shows to a shopper who comes back to the page.
 */
export const STOP_LISTENING_AFTER_MS = 1_800_000;
/**
 * The least `notHeardAfterMs` with an event stream: a status endpoint notices that its store's
 * listening connection died within 15 s and replaces it within 25 s (`listenerCheckMs`,
 * docs/stores.md), and until then its streams hear nothing. The page moves to polling, which
 * reads the store itself, only at `notHeardAfterMs`.
 */
const STREAM_QUIET_MS = 25_000;

/** A positive number of ms, or the default. */
const ms = (value: unknown, fallback: number) =>
  typeof value == 'number' && value > 0 ? value : fallback;

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
    let message = said('the payment result needs statusUrl');
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
  let snapshot = initialResult(
    checkIds(options.payment?.paymentId, options.payment?.merchantPaymentId),
  );
  // The shell's bookkeeping, outside the state (nothing renders it): whether a page shows it,
  // the listening under way, and (development only) whether the raised bound was reported.
  let mounted = false;
  let stopListening: (() => void) | undefined;
  let warned = false;

  // Merchant callbacks must never break the page, nor the page this controller.
  function callMerchant(name: 'onResult' | 'onTryAgain', arg?: PaymentResultOutcome): void {
    try {
      (options[name] as ((value?: PaymentResultOutcome) => void) | undefined)?.(arg);
    } catch (error) {
      reportThrown(name, error);
    }
  }

  /** Applies an event; an outcome ends the listening and is reported, once (it is final). */
  function dispatch(event: PaymentResultEvent): void {
    const before = snapshot;
    snapshot = reduceResult(before, event);
    if (snapshot === before) return;
    if (isFinal(snapshot.state)) endListening();
    listeners.forEach((listener) => listener());
    if (isFinal(snapshot.state) && event.type === 'answered') {
      callMerchant('onResult', {
        ...snapshot.payment!,
        status: event.status as FinalPaymentStatus,
      });
    }
  }

  function endListening(): void {
    stopListening?.();
    stopListening = undefined;
  }

  /** The bounds as the options give them now: when the bank is slow, and the horizon. */
  function bounds(streaming: boolean): [slowAfter: number, horizon: number] {
    let slowAfter = ms(options.notHeardAfterMs, NOT_HEARD_AFTER_MS);
    if (streaming && slowAfter < STREAM_QUIET_MS) {
      try {
        if (process.env.NODE_ENV !== 'production' && !warned) {
          warned = true;
          warn(
            `notHeardAfterMs is ${slowAfter}, less than the ${STREAM_QUIET_MS} ms a status endpoint may take to notice that its store's listening connection died, so it was raised to ${STREAM_QUIET_MS}; with eventSource: false (polling only) it is not`,
          );
        }
      } catch {
        // No bundler: no warning.
      }
      slowAfter = STREAM_QUIET_MS;
    }
    return [
      slowAfter,
      Math.max(ms(options.stopListeningAfterMs, STOP_LISTENING_AFTER_MS), slowAfter),
    ];
  }

  /** Listens for the payment's outcome from the state it is in (waiting, slow, or resting). */
  function startListening(payment: PaymentIds): void {
    const url = new URL(statusUrl!, globalThis.location?.href);
    url.searchParams.set('paymentId', payment.paymentId);
    url.searchParams.set('merchantPaymentId', payment.merchantPaymentId);
    const stream = options.eventSource !== false;
    const [slowAfter, horizon] = bounds(stream && typeof EventSource == 'function');
    const from = snapshot.state as 'waiting' | 'still-confirming' | 'not-heard';
    stopListening = listen(
      {
        url: url.href,
        from,
        slowInMs: slowAfter,
        horizonInMs: from === 'waiting' ? horizon : horizon - slowAfter,
        stream,
        fetch: () => options.fetch ?? fetch,
      },
      {
        answer: (answer) => dispatch({ type: 'answered', ...answer }),
        slow: () => dispatch({ type: 'slow' }),
        horizon: () => dispatch({ type: 'horizon' }),
      },
    );
  }

  return {
    getState: () => snapshot,

    subscribe: subscribe(listeners),

    setOptions(next) {
      if (next && typeof next == 'object') options = next;
    },

    mount() {
      if (!mounted) {
        mounted = true;
        if (snapshot.state === 'waiting' && !snapshot.payment) {
          const payment = takeReturnedPayment();
          dispatch(payment ? { type: 'found', payment } : { type: 'missing' });
        }
        const { payment, state } = snapshot;
        if (payment && !isFinal(state)) startListening(payment);
      }
      return () => {
        mounted = false;
        endListening();
      };
    },

    checkAgain() {
      const before = snapshot;
      if (mounted) dispatch({ type: 'checkAgain' });
      if (snapshot === before) return;
      endListening();
      startListening(snapshot.payment!);
    },

    tryAgain: () => callMerchant('onTryAgain'),
  };
}
