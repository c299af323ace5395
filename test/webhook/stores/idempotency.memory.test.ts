// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  IdempotencyStoreFullError,
  MemoryIdempotencyStore,
  WebhookConfigError,
} from '../../../src/webhook/index';
import type { IdempotencyClaim, IdempotencyStore } from '../../../src/webhook/index';
import { checkIdempotencyStore } from '../../../src/webhook/testing';
import { deferred } from '../../helpers/deferred';
import { onFakeClock } from '../support/fake-clock';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { recorder, statusOf } from '../support/receivers';
import type { Recorder } from '../support/receivers';

const keys = serviceKeys();

/** A receiver on `store` (two on one store stand for two handlers of one process). */
const receiver = (store: IdempotencyStore, record: Recorder) => statusOf({ store, ...record });

function clock(): { now: () => number; advance: (ms: number) => void } {
  let time = 1_000;
  return { now: () => time, advance: (ms) => (time += ms) };
}

/** The token of a claim that must have succeeded. */
function token(claim: IdempotencyClaim): string {
  if (claim.state !== 'claimed') throw new Error(`expected a claim, got ${claim.state}`);
  return claim.token;
}

describe('MemoryIdempotencyStore', () => {
  // The kit waits out claims of 1 to 2.5 s, here on the fake clock (the store reads Date.now).
  it('passes the conformance kit', async () => {
    await onFakeClock(() => checkIdempotencyStore(() => new MemoryIdempotencyStore()));
  }, 60_000);

  it('claims once; a second claim sees in-progress, then completed', () => {
    const store = new MemoryIdempotencyStore();
    const a = token(store.claim('a', 1000));
    expect(store.claim('a', 1000)).toEqual({ state: 'in-progress' });
    expect(store.complete('a', a, 1000)).toBe(true);
    expect(store.claim('a', 1000)).toEqual({ state: 'completed' });
    expect(store.claim('b', 1000).state).toBe('claimed');
  });

  it('release frees the owner’s claim but never a completed marker', () => {
    const store = new MemoryIdempotencyStore();
    expect(store.release('a', token(store.claim('a', 1000)))).toBe(true);
    const second = token(store.claim('a', 1000));
    expect(store.complete('a', second, 1000)).toBe(true);
    expect(store.release('a', second)).toBe(false);
    expect(store.claim('a', 1000)).toEqual({ state: 'completed' });
  });

  it('a claim that lapsed and was taken again is the new owner’s: the old token changes nothing', () => {
    const time = clock();
    const store = new MemoryIdempotencyStore({ now: time.now });
    const first = token(store.claim('a', 1000));
    time.advance(1000);
    const second = token(store.claim('a', 1000));
    expect(second).not.toBe(first);
    expect(store.release('a', first)).toBe(false);
    expect(store.complete('a', first, 5000)).toBe(false);
    expect(store.renew('a', first, 5000)).toBe(false);
    expect(store.claim('a', 1000)).toEqual({ state: 'in-progress' });
    expect(store.complete('a', second, 5000)).toBe(true);
    expect(store.claim('a', 1000)).toEqual({ state: 'completed' });
  });

  it('an in-progress claim expires, unless renewed by its owner', () => {
    const time = clock();
    const store = new MemoryIdempotencyStore({ now: time.now });
    const a = token(store.claim('a', 1000));
    time.advance(999);
    expect(store.claim('a', 1000).state).toBe('in-progress');
    expect(store.renew('a', a, 1000)).toBe(true);
    time.advance(999);
    expect(store.claim('a', 1000).state).toBe('in-progress');
    time.advance(1);
    expect(store.claim('a', 1000).state).toBe('claimed');
  });

  it('a completed marker expires after its ttl', () => {
    const time = clock();
    const store = new MemoryIdempotencyStore({ now: time.now });
    store.complete('a', token(store.claim('a', 1000)), 2000);
    time.advance(1999);
    expect(store.claim('a', 1000).state).toBe('completed');
    time.advance(1);
    expect(store.claim('a', 1000).state).toBe('claimed');
  });

  it('holds at most maxEntries, dropping expired entries and then the oldest', () => {
    const time = clock();
    const store = new MemoryIdempotencyStore({ maxEntries: 3, now: time.now });
    const done = (key: string, ttlMs: number): void => {
      store.complete(key, token(store.claim(key, 1000)), ttlMs);
    };
    done('old', 10);
    done('a', 10_000);
    done('b', 10_000);
    time.advance(20); // 'old' has expired
    done('c', 10_000);
    expect(store.size).toBe(3);
    // Full with live entries: the least recently written ('a') makes room.
    done('d', 10_000);
    expect(store.size).toBe(3);
    expect(store.claim('b', 1000).state).toBe('completed');
    expect(store.claim('c', 1000).state).toBe('completed');
    expect(store.claim('d', 1000).state).toBe('completed');
    expect(store.claim('a', 1000).state).toBe('claimed');
    for (let i = 0; i < 1000; i++) done(`k${i}`, 10_000);
    expect(store.size).toBe(3);
  });

  it('keeps which payment paid each order for its ttl, at most maxEntries orders, oldest dropped first', () => {
    const time = clock();
    const store = new MemoryIdempotencyStore({ maxEntries: 2, now: time.now });
    expect(store.claimOrder('o1', 'pay-a', 1000)).toBe('pay-a');
    expect(store.claimOrder('o1', 'pay-b', 1000)).toBe('pay-a');
    expect(store.orderPaidBy('o1')).toBe('pay-a');
    time.advance(1000);
    expect(store.orderPaidBy('o1')).toBeNull();
    expect(store.claimOrder('o1', 'pay-b', 1000)).toBe('pay-b');
    store.claimOrder('o2', 'pay-c', 1000);
    store.claimOrder('o3', 'pay-d', 1000); // full: o1, the oldest, goes
    expect([store.orderPaidBy('o1'), store.orderPaidBy('o2'), store.orderPaidBy('o3')]).toEqual([
      null,
      'pay-c',
      'pay-d',
    ]);
    // Orders have their own bound: claims are not crowded out by them.
    expect(store.claim('k', 1000).state).toBe('claimed');
  });

  it('never drops a live claim to make room: completed markers go first, then a claim is refused', () => {
    const time = clock();
    const store = new MemoryIdempotencyStore({ maxEntries: 3, now: time.now });
    const live = token(store.claim('live', 60_000));
    store.complete('done', token(store.claim('done', 60_000)), 60_000);
    token(store.claim('other', 60_000));
    // Full: the completed marker is dropped, never the older live claim.
    token(store.claim('new', 60_000));
    expect(store.claim('live', 60_000)).toEqual({ state: 'in-progress' });
    expect(store.size).toBe(3);
    // Only live claims now: a fourth is refused rather than drop one of them.
    const refused = (() => {
      try {
        return store.claim('fourth', 60_000);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(IdempotencyStoreFullError);
    expect((refused as Error).message).toMatch(
      /^servicepay: MemoryIdempotencyStore is full: all 3 entries/,
    );
    expect(store.claim('live', 60_000)).toEqual({ state: 'in-progress' });
    // Once a claim ends, there is room again.
    expect(store.complete('live', live, 60_000)).toBe(true);
    time.advance(1);
    expect(store.claim('fourth', 60_000).state).toBe('claimed');
  });

  it('a slow handler keeps its claim while maxEntries fills: its resend answers 409 and it runs once', async () => {
    const store = new MemoryIdempotencyStore({ maxEntries: 50 });
    const slow = notification();
    const gate = deferred<void>();
    const record = recorder(async (n) => {
      if (n.paymentId === slow.paymentId) await gate.promise;
    });
    // Two handlers of one process on one store, as a Next.js app's two route modules would be.
    const a = receiver(store, record);
    const b = receiver(store, record);
    const delivery = signed(slow, keys.privateKey);
    const first = a(delivery);
    for (let i = 0; i < 60; i++) {
      expect(await b(signed(notification(), keys.privateKey))).toBe(200);
    }
    expect(await b(delivery)).toBe(409);
    gate.resolve();
    expect(await first).toBe(200);
    expect(await b(delivery)).toBe(200);
    expect(record.notifications.filter((n) => n.paymentId === slow.paymentId)).toHaveLength(1);
    expect(record.notifications).toHaveLength(61);
  });

  it('full of live claims: a new notification is answered 503 and handled when resent', async () => {
    const store = new MemoryIdempotencyStore({ maxEntries: 5 });
    const gate = deferred<void>();
    const record = recorder(() => gate.promise);
    const handle = receiver(store, record);
    const running = Array.from({ length: 5 }, () =>
      handle(signed(notification(), keys.privateKey)),
    );
    const late = signed(notification(), keys.privateKey);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the five have claimed
    expect(await handle(late)).toBe(503);
    expect(record.errors.map(({ error }) => (error as Error).name)).toEqual([
      'IdempotencyStoreFullError',
    ]);
    gate.resolve();
    expect(await Promise.all(running)).toEqual([200, 200, 200, 200, 200]);
    expect(await handle(late)).toBe(200);
    expect(record.notifications).toHaveLength(6);
  });

  it('rejects a maxEntries that is not a positive integer', () => {
    expect(() => new MemoryIdempotencyStore({ maxEntries: 0 })).toThrow(/^servicepay: /);
    expect(() => new MemoryIdempotencyStore({ maxEntries: 1.5 })).toThrow(WebhookConfigError);
  });
});
