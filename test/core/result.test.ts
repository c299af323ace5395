// The result page's engine over time (issue 45, "The result page waits as long as payments
// take"): createPaymentResult against the real status endpoint in this process
// (test/helpers/status-endpoint.ts), on vitest's fake clock, so half an hour passes in
// milliseconds and every request lands on the clock's time. What the shopper's page shows at
// each moment (the state), what it asked the shop's server and when, what onResult heard.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPaymentResult } from '../../src/core/index';
import type { PaymentResultController, PaymentResultOptions } from '../../src/core/index';
import { inProcessStatusEndpoint } from '../helpers/status-endpoint';
import type { InProcessStatusEndpoint } from '../helpers/status-endpoint';

const IDS = { paymentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', merchantPaymentId: 'order-1042' };
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

let endpoint: InProcessStatusEndpoint;
let started: number;
const unmounts: (() => void)[] = [];

beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  endpoint = inProcessStatusEndpoint();
});
afterEach(async () => {
  unmounts.splice(0).forEach((unmount) => unmount());
  await endpoint.close();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A mounted result page for IDS, with the browser's EventSource when `stream`. */
function openPage(options: Partial<PaymentResultOptions> = {}, { stream = true } = {}) {
  if (stream) vi.stubGlobal('EventSource', endpoint.EventSource);
  const onResult = vi.fn();
  const page = createPaymentResult({
    statusUrl: endpoint.statusUrl,
    payment: IDS,
    fetch: endpoint.fetch,
    onResult,
    ...options,
  });
  started = Date.now();
  unmounts.push(page.mount());
  return { page, onResult };
}

/** Moves the clock to `ms` after the page opened, running what is due on the way. */
const until = (ms: number) => vi.advanceTimersByTimeAsync(started + ms - Date.now());
const state = (page: PaymentResultController) => page.getState().state;
/** The requests since the page opened: [ms after it opened, 'stream' | 'poll']. */
const asked = () =>
  endpoint.requests.map(({ at, stream }) => [at - started, stream ? 'stream' : 'poll'] as const);
const pollTimes = () => asked().flatMap(([at, kind]) => (kind === 'poll' ? [at] : []));

/** A page that is told the tab was hidden or shown (`document.visibilityState`). */
function stubPageVisibility() {
  const page = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  vi.stubGlobal('document', page);
  return (visibility: 'visible' | 'hidden') => {
    page.visibilityState = visibility;
    page.dispatchEvent(new Event('visibilitychange'));
  };
}

describe('the result page over half an hour', () => {
  it('after notHeardAfterMs says the bank is still confirming, and turns from the stream to polls', async () => {
    const { page, onResult } = openPage();
    await until(59 * SECOND);
    expect(state(page)).toBe('waiting');
    // The first minute on the event stream alone.
    expect(asked()).toEqual([[0, 'stream']]);
    await until(MINUTE);
    expect(state(page)).toBe('still-confirming');
    // The stream is given back (the server holds nothing for this page), and a look at once.
    expect(asked()).toEqual([
      [0, 'stream'],
      [MINUTE, 'poll'],
    ]);
    await until(3 * MINUTE);
    expect(asked().filter(([, kind]) => kind === 'stream')).toHaveLength(1);
    expect(onResult).not.toHaveBeenCalled();
  });

  it('polls 1, 2, 4, then 5 s apart, then from the first minute ever wider to a minute and a minute after that', async () => {
    // Polling only (no EventSource, or a proxy that refuses streams): the whole ladder.
    const { page } = openPage({}, { stream: false });
    await until(30 * MINUTE);
    const times = pollTimes();
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    const first = gaps.filter((_, i) => times[i]! < MINUTE);
    expect(first.slice(0, 4)).toEqual([1, 2, 4, 5].map((s) => s * SECOND));
    expect(new Set(first.slice(3))).toEqual(new Set([5 * SECOND]));
    const later = gaps.slice(first.length);
    expect(later.slice(0, 4)).toEqual([10, 20, 40, 60].map((s) => s * SECOND));
    // Never closer once spaced out, never further apart than a minute.
    later.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(later[i - 1] ?? 0));
    expect(new Set(later.slice(3))).toEqual(new Set([MINUTE]));
    expect(state(page)).toBe('still-confirming');
  });

  it('reaches not-heard at the first look at or after the horizon (30 minutes), then asks nothing more', async () => {
    const { page, onResult } = openPage();
    await until(30 * MINUTE - 1);
    expect(state(page)).toBe('still-confirming');
    await until(31 * MINUTE);
    expect(state(page)).toBe('not-heard');
    const last = pollTimes().at(-1)!;
    expect(last).toBeGreaterThanOrEqual(30 * MINUTE);
    expect(last).toBeLessThanOrEqual(31 * MINUTE);
    const count = endpoint.requests.length;
    await until(5 * HOUR);
    expect(endpoint.requests).toHaveLength(count);
    expect(onResult).not.toHaveBeenCalled();
  });

  it('a final status recorded at 10 minutes replaces the state within a minute, with no click, onResult once', async () => {
    const { page, onResult } = openPage();
    await until(10 * MINUTE);
    expect(state(page)).toBe('still-confirming');
    endpoint.record(IDS, 'COMPLETED');
    await until(11 * MINUTE);
    expect(state(page)).toBe('received');
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'COMPLETED' }]]);
    // Nothing more is asked once the outcome is known.
    const count = endpoint.requests.length;
    await until(40 * MINUTE);
    expect(endpoint.requests).toHaveLength(count);
    expect(state(page)).toBe('received');
  });

  it('a page opened again hours later shows the recorded outcome at once', async () => {
    const first = openPage();
    await until(5 * MINUTE);
    // The shopper closed the page; the bank confirmed two hours later.
    unmounts.pop()!();
    await vi.advanceTimersByTimeAsync(2 * HOUR);
    endpoint.record(IDS, 'COMPLETED');
    await vi.advanceTimersByTimeAsync(3 * HOUR);
    expect(state(first.page)).toBe('still-confirming');
    const count = endpoint.requests.length;
    const { page, onResult } = openPage();
    await until(0);
    expect(state(page)).toBe('received');
    expect(endpoint.requests).toHaveLength(count + 1);
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'COMPLETED' }]]);
  });

  it('a background tab whose timers were held back looks at once when it is shown again', async () => {
    const show = stubPageVisibility();
    const { page } = openPage();
    await until(10 * MINUTE);
    show('hidden');
    const count = endpoint.requests.length;
    // Five minutes pass on the wall clock while the tab's timers do not run (a frozen tab).
    vi.setSystemTime(Date.now() + 5 * MINUTE);
    endpoint.record(IDS, 'FAILED');
    await vi.advanceTimersByTimeAsync(0);
    expect(endpoint.requests).toHaveLength(count);
    expect(state(page)).toBe('still-confirming');
    show('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(state(page)).toBe('not-completed');
    expect(endpoint.requests).toHaveLength(count + 1);
  });

  it('a tab shown again before a look is due asks nothing more often', async () => {
    const show = stubPageVisibility();
    const { page } = openPage();
    await until(10 * MINUTE);
    const count = endpoint.requests.length;
    for (let i = 0; i < 5; i++) {
      show('hidden');
      show('visible');
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(endpoint.requests).toHaveLength(count);
    // And it still hears the outcome at its next look.
    endpoint.record(IDS, 'COMPLETED');
    await until(11 * MINUTE);
    expect(state(page)).toBe('received');
  });

  it('after the horizon, a shopper who comes back to the tab gets one look, at most one a minute', async () => {
    const show = stubPageVisibility();
    const { page } = openPage();
    await until(32 * MINUTE);
    expect(state(page)).toBe('not-heard');
    endpoint.record(IDS, 'COMPLETED');
    const count = endpoint.requests.length;
    show('hidden');
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(endpoint.requests).toHaveLength(count);
    show('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(state(page)).toBe('received');
    expect(endpoint.requests).toHaveLength(count + 1);
  });

  it('Check again after the horizon listens from the start, for another half hour', async () => {
    const { page } = openPage();
    await until(31 * MINUTE);
    expect(state(page)).toBe('not-heard');
    const from = Date.now();
    page.checkAgain();
    expect(state(page)).toBe('waiting');
    await vi.advanceTimersByTimeAsync(0);
    expect(endpoint.requests.at(-1)).toMatchObject({ at: from, stream: true });
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(state(page)).toBe('still-confirming');
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(state(page)).toBe('not-heard');
  });

  it('stopListeningAfterMs sets the horizon', async () => {
    const { page } = openPage({ stopListeningAfterMs: 5 * MINUTE });
    await until(5 * MINUTE - 1);
    expect(state(page)).toBe('still-confirming');
    await until(6 * MINUTE);
    expect(state(page)).toBe('not-heard');
  });
});

describe('notHeardAfterMs below the time a listener may be dead', () => {
  it('with an event stream: raised to 25 s, with one development warning, never thrown', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { page } = openPage({ notHeardAfterMs: 5 * SECOND });
    // StrictMode's unmount and mount: the same controller, one warning.
    unmounts.pop()!();
    unmounts.push(page.mount());
    await until(25 * SECOND - 1);
    expect(state(page)).toBe('waiting');
    await until(25 * SECOND);
    expect(state(page)).toBe('still-confirming');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(
      /^servicepay: notHeardAfterMs is 5000, less than the 25000 ms .* raised to 25000/,
    );
  });

  it('polling only (eventSource: false): as given, with no warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { page } = openPage({ notHeardAfterMs: 5 * SECOND, eventSource: false });
    await until(5 * SECOND);
    expect(state(page)).toBe('still-confirming');
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('the server’s cost', () => {
  it('a stream the server ends is reconnected twice, then the page polls', async () => {
    await endpoint.close();
    // The server ends each stream after a second (checked at each heartbeat).
    endpoint = inProcessStatusEndpoint({ streamTimeoutMs: 1000, heartbeatMs: 1000 });
    const { page } = openPage();
    await until(20 * SECOND);
    const kinds = asked().map(([, kind]) => kind);
    expect(kinds.slice(0, 4)).toEqual(['stream', 'stream', 'stream', 'poll']);
    expect(kinds.filter((kind) => kind === 'stream')).toHaveLength(3);
    expect(state(page)).toBe('waiting');
  });

  it('past the server’s stream limit the page polls at once, and still hears the outcome', async () => {
    await endpoint.close();
    endpoint = inProcessStatusEndpoint({ maxStreams: 1 });
    const other = openPage({ payment: { ...IDS, paymentId: 'another-payment' } });
    const { page } = openPage();
    await until(0);
    expect(endpoint.requests.map(({ stream, paymentId }) => [paymentId, stream])).toEqual([
      ['another-payment', true],
      [IDS.paymentId, true],
      [IDS.paymentId, false],
    ]);
    endpoint.record(IDS, 'COMPLETED');
    await until(2 * SECOND);
    expect(state(page)).toBe('received');
    // The page that holds the stream gives it back after its first minute, and polls.
    await until(MINUTE);
    expect(state(other.page)).toBe('still-confirming');
    const third = openPage({ payment: { ...IDS, paymentId: 'third-payment' } });
    await until(0);
    expect(endpoint.requests.find((r) => r.paymentId === 'third-payment')).toMatchObject({
      stream: true,
    });
    expect(state(third.page)).toBe('waiting');
    endpoint.record({ ...IDS, paymentId: 'another-payment' }, 'FAILED');
    await until(3 * MINUTE);
    expect(state(other.page)).toBe('not-completed');
  });
});

describe('what was paid (issue 47)', () => {
  const PAID = { amount: 12.5, payee: 'Example Coffee Co.', reference: 'ORDER-1042' };

  it.each([
    ['the event stream', true],
    ['a poll', false],
  ])('comes with the final status by %s, as the merchant’s expose adds it', async (_, stream) => {
    await endpoint.close();
    endpoint = inProcessStatusEndpoint({ expose: () => ({ paid: PAID, order: 7 }) });
    const { page, onResult } = openPage({}, { stream });
    await until(0);
    expect(page.getState().paid).toBeNull();
    endpoint.record(IDS, 'COMPLETED');
    await until(5 * SECOND);
    expect(page.getState()).toEqual({ state: 'received', payment: IDS, paid: PAID });
    // onResult is the outcome as before: the ids and the status.
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'COMPLETED' }]]);
  });

  it('is null without expose, and for a payment that was not completed', async () => {
    const plain = openPage();
    endpoint.record(IDS, 'COMPLETED');
    await until(SECOND);
    expect(plain.page.getState()).toEqual({ state: 'received', payment: IDS, paid: null });

    await endpoint.close();
    endpoint = inProcessStatusEndpoint({ expose: () => ({ paid: PAID }) });
    const failed = openPage();
    endpoint.record(IDS, 'FAILED');
    await until(SECOND);
    expect(failed.page.getState()).toEqual({ state: 'not-completed', payment: IDS, paid: null });
  });
});
