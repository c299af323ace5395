/**
 * The listeners of what changes in a running sandbox (a delivery attempt, the armed faults, the
 * receiver check, the scheduled steps), for its deliveries page and `onDelivery`, and the
 * merchant's `log`. Each call is guarded: a listener that throws never stops what told it, and
 * its error goes to `onError` (a log line's nowhere: logging is a side show, and a payment or a
 * delivery must not fail because of it).
 */
export interface Listeners<T> {
  /** Adds a listener; returns the unsubscribe function. */
  subscribe(listener: (value: T) => void): () => void;
  emit(value: T): void;
  clear(): void;
}

/** `listener`, called so that it never throws: its error goes to `onError`. */
export function guarded<T>(
  listener: (value: T) => void,
  onError: (error: unknown) => void = () => {},
): (value: T) => void {
  return (value) => {
    try {
      listener(value);
    } catch (error) {
      onError(error);
    }
  };
}

export function createListeners<T = void>(
  onError: (error: unknown) => void = () => {},
): Listeners<T> {
  const listeners = new Map<(value: T) => void, (value: T) => void>();
  return {
    subscribe(listener) {
      listeners.set(listener, guarded(listener, onError));
      return () => listeners.delete(listener);
    },
    emit(value) {
      for (const call of listeners.values()) call(value);
    },
    clear: () => listeners.clear(),
  };
}
