// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { MemoryIdempotencyStore } from '../../src/webhook/index';

function clock(): { now: () => number; advance: (ms: number) => void } {
  let time = 1_000;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe('MemoryIdempotencyStore', () => {
  it('claims once; a second claim sees in-progress, then completed', () => {
    const store = new MemoryIdempotencyStore();
    expect(store.claim('a', 1000)).toBe('claimed');
    expect(store.claim('a', 1000)).toBe('in-progress');
    store.complete('a', 1000);
    expect(store.claim('a', 1000)).toBe('completed');
    expect(store.claim('b', 1000)).toBe('claimed');
  });

  it('release frees an in-progress claim but never a completed marker', () => {
    const store = new MemoryIdempotencyStore();
    store.claim('a', 1000);
    store.release('a');
    expect(store.claim('a', 1000)).toBe('claimed');
    store.complete('a', 1000);
    store.release('a');
    expect(store.claim('a', 1000)).toBe('completed');
  });

  it('an in-progress claim expires, so a crashed handler does not block resends', () => {
    const time = clock();
    const store = new MemoryIdempotencyStore({ now: time.now });
    expect(store.claim('a', 500)).toBe('claimed');
    time.advance(499);
    expect(store.claim('a', 500)).toBe('in-progress');
    time.advance(1);
    expect(store.claim('a', 500)).toBe('claimed');
  });

  it('a completed marker expires after its ttl', () => {
    const time = clock();
    const store = new MemoryIdempotencyStore({ now: time.now });
    store.claim('a', 500);
    store.complete('a', 2000);
    time.advance(1999);
    expect(store.claim('a', 500)).toBe('completed');
    time.advance(1);
    expect(store.claim('a', 500)).toBe('claimed');
  });

  it('holds at most maxEntries, dropping expired entries and then the oldest', () => {
    const time = clock();
    const store = new MemoryIdempotencyStore({ maxEntries: 3, now: time.now });
    store.complete('old', 10);
    store.complete('a', 10_000);
    store.complete('b', 10_000);
    time.advance(20); // 'old' has expired
    store.complete('c', 10_000);
    expect(store.size).toBe(3);
    // Full with live entries: the least recently written ('a') makes room.
    store.complete('d', 10_000);
    expect(store.size).toBe(3);
    expect(store.claim('b', 10)).toBe('completed');
    expect(store.claim('c', 10)).toBe('completed');
    expect(store.claim('d', 10)).toBe('completed');
    expect(store.claim('a', 10)).toBe('claimed');
    for (let i = 0; i < 1000; i++) store.complete(`k${i}`, 10_000);
    expect(store.size).toBe(3);
  });

  it('rejects a maxEntries that is not a positive integer', () => {
    expect(() => new MemoryIdempotencyStore({ maxEntries: 0 })).toThrow(/^servicepay: /);
    expect(() => new MemoryIdempotencyStore({ maxEntries: 1.5 })).toThrow(RangeError);
  });
});
