// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { MemoryIdempotencyStore } from '../../src/webhook/index';
import type { IdempotencyClaim } from '../../src/webhook/index';
import { checkIdempotencyStore } from '../../src/webhook/testing';

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
  it('passes the conformance kit', async () => {
    await checkIdempotencyStore(() => new MemoryIdempotencyStore());
  });

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

  it('rejects a maxEntries that is not a positive integer', () => {
    expect(() => new MemoryIdempotencyStore({ maxEntries: 0 })).toThrow(/^servicepay: /);
    expect(() => new MemoryIdempotencyStore({ maxEntries: 1.5 })).toThrow(RangeError);
  });
});
