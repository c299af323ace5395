import { useEffect, useState, useSyncExternalStore } from 'react';
import { useClientLayoutEffect } from './useClientLayoutEffect';

/**
 * What the binding needs of a controller (core's payment session, its result controller): a
 * state to subscribe to, a new object after every change; options it reads at call time; and
 * `mount`, the work it does once in the page (fetch, listen), which returns its unmount.
 */
export interface Bindable<O> {
  getState(): unknown;
  subscribe(listener: () => void): () => void;
  setOptions(options: O): void;
  mount(): () => void;
}

/**
 * Internal (not exported by the package's entries): a controller a front door made itself,
 * under `K`, which the view renders instead of making its own (`servicepay/vanilla`, whose
 * class and rendered view drive one), and `idPrefix`, put before the element ids: Preact
 * numbers `useId` from zero in every root, so two instances on a page would share ids.
 */
export type MadeElsewhere<K extends string, C> = { [key in K]?: C } & { idPrefix?: string };

/**
 * The one binding of a core controller to a component, for every controller (TanStack Query's
 * `useBaseQuery(options, Observer)`): the controller that `key` names, kept across renders; the
 * newest options handed to it after each render; its state, subscribed to. The controller owns
 * the behaviour; this only binds it.
 *
 * `key` is what defines the controller: a string of its defining options (the others are read
 * at call time, so new inline callbacks re-create nothing), or the controller a front door made
 * itself (`MadeElsewhere`). Another key makes another controller with `create`, during the
 * render, so creating one must have no side effects (safe on a server, and in a render React
 * throws away). `mount` runs after the first render, in the browser only, so that the server
 * and the first client render match; StrictMode's mount, unmount, mount calls it twice, which
 * the controllers allow.
 */
export function useController<O, C extends Bindable<O>>(
  options: O,
  key: unknown,
  create: () => C,
): [C, ReturnType<C['getState']>] {
  // [key, controller]: a pair, not an object, for a few bytes in every Pay button's bundle.
  const [kept, keep] = useState((): [unknown, C] => [key, create()]);
  let controller = kept[1];
  if (kept[0] !== key) keep([key, (controller = create())]);
  // After the render, before paint: merchant code the options carry (callbacks, a payment's
  // checks) never runs while rendering.
  useClientLayoutEffect(() => controller.setOptions(options));
  useEffect(() => controller.mount(), [controller]);
  const state = useSyncExternalStore(
    controller.subscribe,
    controller.getState,
    controller.getState,
  );
  return [controller, state as ReturnType<C['getState']>];
}
