/**
 * The listeners of what changes in a running sandbox (a delivery attempt, the armed faults, the
 * receiver check, the scheduled steps), for its deliveries page and `onDelivery`. Each call is
 * guarded: a listener that throws never stops what told it, and its error goes to `onError`.
 */
export interface Listeners<T> {
  /** Adds a listener; returns the unsubscribe function. */
  subscribe(listener: (value: T) => void): () => void;
  emit(value: T): void;
  clear(): void;
}

export function createListeners<T = void>(
  onError: (error: unknown) => void = () => {},
): Listeners<T> {
  const listeners = new Set<(value: T) => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(value) {
      for (const listener of listeners) {
        try {
          listener(value);
        } catch (error) {
          onError(error);
        }
      }
    },
    clear: () => listeners.clear(),
  };
}
