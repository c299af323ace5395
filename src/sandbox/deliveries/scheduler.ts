/**
 * A clock and its stop, the deliverer's (the timers of retries, delays and late resends, the
 * attempts in flight, and the signal that aborts them) and the payment lifecycle's. stop()
 * cancels every timer (each with what to do when cancelled) and resolves once nothing is in
 * flight. The timers are unref'd: a sandbox never keeps a process alive by them (a running one
 * is kept alive by its server).
 */
import { setMaxListeners } from 'node:events';

/** The longest timer Node keeps (setTimeout fires at once beyond it). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface Scheduler {
  /** Runs `run` after `delayMs` unless stopped first; then `onCancel` runs instead. */
  schedule(run: () => void, delayMs: number, onCancel?: () => void): void;
  /** Counts `task` as in flight until it settles, then hands its value to `then`. */
  track<T>(task: Promise<T>, then: (value: T) => void): void;
  /** Aborted by stop(): attempts in flight listen to it. */
  readonly signal: AbortSignal;
  /** Scheduled plus in flight (0 once stopped). */
  pending(): number;
  stop(): Promise<void>;
}

export function createScheduler(): Scheduler {
  /** Scheduled attempts, each with what to do when stop() cancels it. */
  const timers = new Map<NodeJS.Timeout, () => void>();
  const inFlight = new Set<Promise<void>>();
  const stopping = new AbortController();
  // Each attempt in flight listens to it once, and stops listening when it ends: no leak, so
  // no MaxListenersExceededWarning past 10 deliveries at once.
  setMaxListeners(0, stopping.signal);

  return {
    schedule(run, delayMs, onCancel = () => {}) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stopping.signal.aborted) run();
      }, delayMs);
      timer.unref();
      timers.set(timer, onCancel);
    },
    track(task, then) {
      // No longer in flight before `then` runs: a retry it schedules is counted once.
      const done: Promise<void> = task.then((value) => {
        inFlight.delete(done);
        then(value);
      });
      inFlight.add(done);
    },
    signal: stopping.signal,
    pending: () => timers.size + inFlight.size,
    async stop() {
      stopping.abort();
      for (const [timer, cancelled] of timers) {
        clearTimeout(timer);
        cancelled();
      }
      timers.clear();
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
