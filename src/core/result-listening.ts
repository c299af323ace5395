/**
 * How the result page listens to the shop's status endpoint for one payment, from the first
 * second to the horizon: the effects behind the controller's `answered`, `slow` and `horizon`
 * events (./result-machine). One listening per mounted page; `stop` ends all of it.
 *
 *   0 s ──── event stream (reconnected by the browser at most twice; when it fails,
 *            │ polls after 1 s, 2 s, 4 s, then every 5 s)
 *   notHeardAfterMs (`slow`) ── the stream is closed, a poll at once, then polls 10 s, 20 s,
 *            │ 40 s apart, then every minute: never closer once spaced out, never further
 *            │ apart than a minute, so a recorded outcome shows within a minute
 *   stopListeningAfterMs ── the first poll at or after it is the last (`horizon`); then only
 *            a look when the shopper comes back to the tab, at most one a minute
 *
 * A poll a minute after the first minute, rather than a stream held for half an hour: a poll
 * holds nothing on the server between requests (a stream holds memory and a store listener,
 * and is ended by the server every `streamTimeoutMs` anyway), and its answer is read from the
 * store itself, so a listener that died or a connection a NAT dropped without a word cannot
 * hide the outcome: a stream could not promise "within a minute". Timers in a background tab
 * are throttled (to once a minute in Chrome after five minutes, never in a frozen one), so the
 * tab looks at once when it is shown, focused or back online and a look is overdue.
 */
import { readText } from './http-transport';
import { warn } from './console';
import { decodeStatusAnswer, MAX_STATUS_ANSWER_BYTES } from './protocol';
import type { StatusAnswerFields } from './protocol';

/** What the listening tells the controller. */
export interface ListeningHooks {
  /** A well-formed answer of the endpoint (PENDING included), with what was paid if it says. */
  answer(answer: StatusAnswerFields): void;
  /** `notHeardAfterMs` has passed. */
  slow(): void;
  /** The last look, at or after `stopListeningAfterMs`, found no final status. */
  horizon(): void;
}

export interface ListeningPlan {
  /** The status endpoint's address with the payment's two ids. */
  url: string;
  /** Where it starts: `waiting` (the stream first), `still-confirming`, or resting (`not-heard`). */
  from: 'waiting' | 'still-confirming' | 'not-heard';
  /** From now until `slow` (from `waiting` only). */
  slowInMs: number;
  /** From now until the horizon. */
  horizonInMs: number;
  /** An event stream where the browser has one (the `eventSource` option). */
  stream: boolean;
  /** The fetch to poll with, read at each poll (options are read when used). */
  fetch(): typeof fetch;
}

/** Each poll gives up after this long (a stalled connection), then is asked again. */
const REQUEST_TIMEOUT_MS = 10_000;
/** The widest spacing of polls: a recorded outcome shows within it. */
export const MAX_POLL_SPACING_MS = 60_000;
/**
 * Times the browser may reconnect a stream that was open and ended (a dropped connection, the
 * server's own bound) before the page polls instead. A stream that is refused (503 past the
 * server's limits, an error status) is not reconnected: the page polls at once.
 */
const STREAM_RECONNECTS = 2;

/**
 * The spacing after a poll, given the one before it (0 for none): while waiting 1 s, 2 s, 4 s,
 * then 5 s (quick when it matters); once slow, doubling from there to a minute, then a minute.
 * Never narrower than the one before.
 */
export const nextPollSpacing = (previous: number, slow: boolean): number =>
  slow
    ? Math.min(Math.max(previous, 5000) * 2, MAX_POLL_SPACING_MS)
    : Math.min(previous * 2 || 1000, 5000);

/** setTimeout takes at most 2^31 - 1 ms (about 24 days); longer would fire at once. */
const delay = (ms: number) => Math.min(ms, 2 ** 31 - 1);

/** Listens for one payment's outcome as the plan says; returns the function that stops it. */
export function listen(plan: ListeningPlan, hooks: ListeningHooks): () => void {
  const { url } = plan;
  const horizonAt = Date.now() + plan.horizonInMs;
  let stopped = false;
  let slow = plan.from !== 'waiting';
  /** Past the horizon: no more timers, only a look when the shopper comes back. */
  let resting = plan.from === 'not-heard';
  let source: EventSource | undefined;
  let reconnects = 0;
  let inFlight: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let spacing = 0;
  /** When the last poll started, and when the next one is due. */
  let askedAt = -Infinity;
  let dueAt = Infinity;
  /** The development warning about a wrong status endpoint was given. */
  let warned = false;

  /** An answer of the endpoint, by a poll or the stream: a status, or nothing to act on. */
  const heard = (text: string | undefined) => {
    const answer = text && decodeStatusAnswer(text);
    if (answer) hooks.answer(answer);
  };

  const closeStream = () => {
    source?.close();
    source = undefined;
  };

  const poll = async (): Promise<void> => {
    clearTimeout(timer);
    askedAt = Date.now();
    const controller = (inFlight = new AbortController());
    const timeout = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    try {
      const response = await plan.fetch()(url, {
        headers: { Accept: 'application/json' },
        signal: controller.signal,
      });
      if (response.ok) {
        const text = await readText(response, controller.signal, MAX_STATUS_ANSWER_BYTES);
        // Read to its end: a final answer's stop() must not abort it (marked "(canceled)").
        inFlight = undefined;
        heard(text);
      } else {
        // A development warning, once (a 503 is the endpoint's own "not now"); a production
        // bundle drops it and its flag.
        try {
          if (process.env.NODE_ENV !== 'production' && !warned && response.status !== 503) {
            warned = true;
            const { origin, pathname } = new URL(url);
            warn(
              `the status endpoint answered ${response.status} at ${origin}${pathname}: mount createPaymentStatusHandler there, or pass its address as statusUrl`,
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
      if (inFlight === controller) {
        controller.abort();
        inFlight = undefined;
      }
    }
    if (stopped || resting) return;
    if (Date.now() >= horizonAt) {
      resting = true;
      dueAt = Infinity;
      hooks.horizon();
      return;
    }
    spacing = nextPollSpacing(spacing, slow);
    dueAt = Date.now() + spacing;
    timer = setTimeout(() => void poll(), spacing);
  };

  /** The shopper is back (shown, focused, online): a look now, if one is overdue. */
  const wake = () => {
    if (stopped || source || inFlight || globalThis.document?.visibilityState === 'hidden') return;
    if (Date.now() >= (resting ? askedAt + MAX_POLL_SPACING_MS : dueAt)) void poll();
  };

  const slowTimer = slow
    ? undefined
    : setTimeout(() => {
        slow = true;
        hooks.slow();
        // From here on polls only, the first at once.
        if (source && !stopped) {
          closeStream();
          void poll();
        }
      }, delay(plan.slowInMs));

  const wakeEvents = ['focus', 'online'] as const;
  globalThis.document?.addEventListener('visibilitychange', wake);
  wakeEvents.forEach((name) => globalThis.addEventListener?.(name, wake));

  if (!resting) {
    try {
      if (!slow && plan.stream && typeof EventSource == 'function') source = new EventSource(url);
    } catch {
      // EventSource refused the address (a SyntaxError, say, in an odd browser): poll instead.
    }
    const stream = source;
    if (!stream) void poll();
    else {
      // The endpoint sends the current status at once, then the final one when it is recorded.
      stream.onmessage = (event: MessageEvent) => {
        // An event's size cannot be bounded here; `slow` bounds the stream's life.
        if (typeof event.data == 'string' && event.data.length <= MAX_STATUS_ANSWER_BYTES) {
          heard(event.data);
        }
      };
      stream.onerror = () => {
        // CONNECTING: the browser reconnects by itself after a stream that was open ended.
        // CLOSED: refused (503 past the server's limits, an error status, no stream at all).
        if (stream.readyState === EventSource.CONNECTING && reconnects++ < STREAM_RECONNECTS) {
          return;
        }
        closeStream();
        if (!stopped) void poll();
      };
    }
  }

  return () => {
    stopped = true;
    closeStream();
    inFlight?.abort();
    clearTimeout(timer);
    clearTimeout(slowTimer);
    globalThis.document?.removeEventListener('visibilitychange', wake);
    wakeEvents.forEach((name) => globalThis.removeEventListener?.(name, wake));
  };
}
