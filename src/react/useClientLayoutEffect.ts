import { useEffect, useLayoutEffect } from 'react';

/**
 * A layout effect in the browser (after the render, before paint), a plain effect elsewhere:
 * no effect runs on a server, and React 18 warns of a layout effect there. Only a `typeof`
 * test at import, so Server Components import it safely. The bindings hand their options
 * over in it (./useController), servicepay/hosted attaches the service's component in it.
 */
export const useClientLayoutEffect = typeof window == 'undefined' ? useEffect : useLayoutEffect;
