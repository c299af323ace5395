// The receive path's one crossing between values at hand and promises (src/webhook/maybe.ts,
// issue 48): a value at hand is used at once, with no promise made (the receiver's synchronous
// path, which its benchmark measures); any thenable is waited for, not only a Promise (a store
// may answer with its driver's own).
import { describe, expect, it } from 'vitest';
import { isThenable, whenReady, whenSettled } from '../../src/webhook/maybe';

/** A thenable that is not a Promise, as some database drivers answer. */
function thenable<T>(value: T): PromiseLike<T> {
  return { then: (resolve) => Promise.resolve(value).then(resolve) } as PromiseLike<T>;
}

describe('isThenable', () => {
  it.each<[string, unknown, boolean]>([
    ['a Promise', Promise.resolve(1), true],
    ['a thenable that is no Promise', thenable(1), true],
    ['a value', 1, false],
    ['null', null, false],
    ['an object with a then that is no function', { then: 'later' }, false],
    ['a function', () => 1, false],
  ])('%s: %s', (_, value, expected) => {
    expect(isThenable(value)).toBe(expected);
  });
});

describe('whenReady', () => {
  it('applies next at once to a value at hand, and answers no promise', () => {
    expect(whenReady(2, (n) => n * 3)).toBe(6);
  });

  it('waits for a promise and for a thenable', async () => {
    const fromPromise = whenReady(Promise.resolve(2), (n) => n * 3);
    const fromThenable = whenReady(thenable(2), (n) => n * 3);
    expect(isThenable(fromPromise) && isThenable(fromThenable)).toBe(true);
    expect([await fromPromise, await fromThenable]).toEqual([6, 6]);
  });

  it('flattens a next that answers a promise, and lets a rejection through untouched', async () => {
    expect(await whenReady(2, (n) => Promise.resolve(n + 1))).toBe(3);
    const failure = new Error('store down');
    let called = false;
    const rejected = whenReady(Promise.reject(failure), () => (called = true));
    await expect(rejected).rejects.toBe(failure);
    expect(called).toBe(false);
  });
});

describe('whenSettled', () => {
  it('hears a value at hand at once, and a promise once it settles, with its failure', async () => {
    const heard: [unknown, boolean][] = [];
    const after = (failure: unknown, failed: boolean) => void heard.push([failure, failed]);
    expect(whenSettled(1, after)).toBe(1);
    expect(heard).toEqual([[undefined, false]]);
    const failure = new Error('late');
    const rejected = Promise.reject(failure);
    expect(whenSettled(rejected, after)).toBe(rejected);
    await rejected.catch(() => {});
    await Promise.resolve();
    expect(heard).toEqual([
      [undefined, false],
      [failure, true],
    ]);
  });
});
