/**
 * Calling a store whose methods may answer a value or a promise, and may throw: the helpers
 * the dispatcher (dispatch.ts) retries completions and records outcomes with.
 */

/** A store call as a promise that never throws synchronously (methods may be either). */
export function call<T>(method: () => T | PromiseLike<T>): Promise<T> {
  try {
    return Promise.resolve(method());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Calls `attempt` until it answers without failing, pausing `pauseBefore(n)` ms before try n
 * (from 0) and giving up when it says null: the answer, or the last failure.
 */
export async function retrying<T>(
  attempt: () => T | PromiseLike<T>,
  pauseBefore: (n: number) => number | null,
): Promise<{ value: T } | { error: unknown }> {
  let error: unknown;
  for (let n = 0; ; n++) {
    const ms = pauseBefore(n);
    if (ms === null) return { error };
    if (ms > 0) await pause(ms);
    try {
      return { value: await call(attempt) };
    } catch (failure) {
      error = failure;
    }
  }
}

/** A pause that never keeps a Node process alive (edge runtimes have no unref). */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    (timer as { unref?: () => void }).unref?.();
  });
}
