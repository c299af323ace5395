import { useEffect, useLayoutEffect } from 'react';

/**
 * A layout effect in the browser (after the render, before paint), a plain effect elsewhere:
 * no effect runs on a server, and React 18 warns of a layout effect there. Only a `typeof`
 * test at import, so Server Components import it safely. The binding hands a controller its
 * options in it (./useController). servicepay/hosted has a line of its own for the same
 * (src/hosted/ServicePay.tsx): lint keeps it from importing this layer.
 */
export const useClientLayoutEffect = typeof window == 'undefined' ? useEffect : useLayoutEffect;
