// Runs code that waits on timers (the conformance kit waits out claims of 1 to 2.5 s) on
// vitest's fake clock, moved on in small steps until it settles: the same checks in the same
// order, without the seconds of real waiting. Only for stores that read the time from Date.now
// and wait with setTimeout (the memory store and stores made from it): a real server keeps its
// own clock.
import { vi } from 'vitest';

/** Milliseconds of fake time per step: smaller than any wait the kit makes. */
const STEP_MS = 5;

export async function onFakeClock<T>(run: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  try {
    let settled = false;
    const result = run().finally(() => {
      settled = true;
    });
    // A bound, so that a run that never settles fails instead of spinning (10 minutes of fake time).
    for (let steps = 0; !settled && steps < 120_000; steps++) {
      await vi.advanceTimersByTimeAsync(STEP_MS);
    }
    return await result;
  } finally {
    vi.useRealTimers();
  }
}
