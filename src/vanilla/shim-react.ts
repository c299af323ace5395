/**
 * What `react` is for use-sync-external-store's shim in the Preact builds (rollup.config.mjs,
 * preactAlias): the Preact hooks it reads. No `useSyncExternalStore`, so the shim uses its own.
 * Only these, as the shim's `require('react')` keeps every export of this module.
 */
export { useDebugValue, useEffect, useLayoutEffect, useState } from 'preact/hooks';
