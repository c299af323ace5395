// Shared by the listening-connection fault tests (outcomes-*-faults.test.ts): an event stream of
// the real status endpoint, and the frozen-listener scenario both stores must pass.
import { expect } from 'vitest';
import type { OutcomeStore } from '../../../src/webhook/stores/outcomes';
import { createFetchPaymentStatusHandler } from '../../../src/webhook/status/status-fetch';
import { readEventStream } from './event-stream';
import type { EventStreamReader } from './event-stream';
import { hear, outcome } from './outcomes';

/**
 * An event stream of a status endpoint on `store` for `paymentId` (merchant id
 * `order-<paymentId>`, as outcome() makes it), past its first, pending, event. The endpoint's
 * close goes to `closers`.
 */
export async function openStream(
  store: OutcomeStore,
  paymentId: string,
  closers: (() => Promise<void>)[],
): Promise<EventStreamReader> {
  const status = createFetchPaymentStatusHandler({ store, onError: () => {} });
  closers.push(() => status.close());
  const query = `paymentId=${paymentId}&merchantPaymentId=order-${paymentId}`;
  const response = await status(
    new Request(`http://localhost/status?${query}`, { headers: { accept: 'text/event-stream' } }),
  );
  const events = readEventStream(response.body as ReadableStream<Uint8Array>);
  expect(await events.next()).toBe('{"status":"PENDING"}');
  return events;
}

/**
 * B waits (a subscriber and a stream), `freeze()` kills B's listening connection without a word,
 * A records the outcome: both hear it, the stream ends on it, and B hears live again after.
 */
export async function expectHeardThroughFreeze(
  a: OutcomeStore,
  b: OutcomeStore,
  freeze: () => Promise<void>,
  closers: (() => Promise<void>)[],
): Promise<void> {
  const sent = outcome();
  const heard = await hear(b, sent.paymentId);
  const stream = await openStream(b, sent.paymentId, closers);
  await freeze();

  await a.recordOutcome(sent, 60_000);
  expect(await heard.first).toEqual(sent);
  expect(await stream.next()).toBe('{"status":"COMPLETED"}');
  await stream.ended;

  // Live again on the new connection.
  const next = outcome();
  const again = await hear(b, next.paymentId);
  await a.recordOutcome(next, 60_000);
  expect(await again.first).toEqual(next);
  expect(heard.calls).toEqual([sent]);
}
