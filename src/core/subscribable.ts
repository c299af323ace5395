/**
 * A set of listeners and the subscribe that fills it: the one store primitive the payment
 * session and the result controller share (TanStack Query's `Subscribable`).
 * `subscribe` has the shape `useSyncExternalStore` asks for; `notify` calls every listener.
 */
export interface Subscribable {
  /** Calls `listener` on every `notify`; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Calls every listener, in the order they subscribed. */
  notify(): void;
}

export function createSubscribable(): Subscribable {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify: () => listeners.forEach((listener) => listener()),
  };
}
