/**
 * What `react` is in the Preact builds (servicepay/vanilla and the standalone script;
 * rollup.config.mjs, preactAliases): the part of React's API that src/react uses, taken from
 * Preact and the React team's own packages. Re-exports only: nothing here is written by hand.
 *
 * The component (src/react/ServicePayView.tsx, BankList.tsx) uses only hooks and DOM props
 * that mean the same in React and in Preact's core, so nothing needs translating and
 * preact/compat (all of React's API, with import-time hooks that cannot be tree-shaken) is
 * not bundled. docs/decisions.md says why.
 */
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
// React's own shim, for Reacts before 18: on Preact's hooks (its `require('react')` is
// preact/hooks, see rollup.config.mjs).
export { useSyncExternalStore } from 'use-sync-external-store/shim';
