/**
 * What `react` is in the Preact builds (servicepay/vanilla and the standalone script;
 * rollup.config.mjs, preactAliases): the part of React's API that src/react uses, taken from
 * Preact, and `useSyncExternalStore` written on Preact's hooks (below).
 *
 * The component (src/react/ServicePayView.tsx, BankList.tsx) uses only hooks and DOM props
 * that mean the same in React and in Preact's core, so nothing needs translating and
 * preact/compat (all of React's API, with import-time hooks that cannot be tree-shaken) is
 * not bundled. docs/decisions.md says why.
 */
import { useEffect, useState } from 'preact/hooks';

export {
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  // Preact has no insertion phase; a layout effect still runs before paint (preact/compat
  // maps it the same way).
  useLayoutEffect as useInsertionEffect,
} from 'preact/hooks';
export { createElement } from 'preact';

/**
 * React's `useSyncExternalStore` on Preact's hooks, for the controllers of src/core (the
 * session, the result controller): the store's current state at every render, and a render
 * again whenever it changes. Subscribed after the render commits, and again after each change
 * (a controller's subscribe is a Set's add); the first look after subscribing catches a change
 * made in between (the controller's `mount`, say). Preact renders synchronously, so no render
 * can read two states of one store (the tearing React's concurrent renderer guards against).
 * Why not React's own shim: docs/decisions.md.
 */
export function useSyncExternalStore<T>(
  subscribe: (onChange: () => void) => () => void,
  getSnapshot: () => T,
): T {
  const value = getSnapshot();
  const [, rerender] = useState({});
  useEffect(() => {
    const check = () => Object.is(value, getSnapshot()) || rerender({});
    check();
    return subscribe(check);
  }, [subscribe, getSnapshot, value]);
  return value;
}
