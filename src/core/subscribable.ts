/**
 * A set of listeners: the one store primitive the payment session and the result controller
 * share (TanStack Query's `Subscribable`). `subscribe(listeners)` is the subscribe function
 * `useSyncExternalStore` asks for (it returns the unsubscribe function); a change calls every
 * listener, in the order they subscribed (`listeners.forEach`).
 */
export type Listeners = Set<() => void>;

export const subscribe =
  (listeners: Listeners) =>
  (listener: () => void): (() => void) => (
    listeners.add(listener),
    () => listeners.delete(listener)
  );
