import { createFetchPaymentStatusHandler, MemoryIdempotencyStore } from '../../src/webhook/web';
import type { FetchPaymentStatusHandlerOptions } from '../../src/webhook/web';
import type { FinalPaymentStatus, PaymentIds } from '../../src/core/index';
import { fetchEventSource } from './fetch-event-source.mjs';

/**
 * The real status endpoint (createFetchPaymentStatusHandler on the memory store) in this
 * process, for tests that run the result page on a fake clock: no socket, so every answer and
 * stream event lands on the clock's time. `fetch` is what the page polls with, `EventSource`
 * what it streams with (Node and jsdom have none), and every request they make is noted with
 * the clock's time. Outcomes are recorded in the store as the webhook receiver records them.
 */
export interface InProcessStatusEndpoint {
  statusUrl: string;
  fetch: typeof fetch;
  EventSource: typeof EventSource;
  /** Every request, in order: when (Date.now()), and whether it asked for a stream. */
  requests: { at: number; stream: boolean; paymentId: string | null }[];
  /** Records a final status, as the receiver does once onNotification succeeded. */
  record(ids: PaymentIds, status: FinalPaymentStatus): void;
  close(): Promise<void>;
}

export function inProcessStatusEndpoint(
  options: Omit<FetchPaymentStatusHandlerOptions, 'store'> = {},
): InProcessStatusEndpoint {
  const store = new MemoryIdempotencyStore();
  const handler = createFetchPaymentStatusHandler({ ...options, store });
  const requests: InProcessStatusEndpoint['requests'] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push({
      at: Date.now(),
      stream: request.headers.get('accept') === 'text/event-stream',
      paymentId: new URL(request.url).searchParams.get('paymentId'),
    });
    return handler(request);
  }) as typeof globalThis.fetch;
  return {
    statusUrl: 'http://shop.test/api/payments/status',
    fetch,
    EventSource: fetchEventSource(fetch),
    requests,
    record: (ids, status) =>
      void store.recordOutcome(
        { ...ids, status, recordedAt: new Date().toISOString() },
        86_400_000,
      ),
    close: () => handler.close(),
  };
}
