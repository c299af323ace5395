import { warn } from './console';
import { said } from './protocol';
import type { SessionOptions } from './types';

// The session's options read, and its developer sentences written: pure functions, apart
// from the shell (./session) that calls them. Sentences in two lengths and development-only
// warnings as docs/decisions.md ("two lengths") says: inline in the function, so production
// keeps the gist only.

/**
 * After this long without the banks, the shopper is told it is slow and offered a retry: well
 * before the HTTP transport gives up (30 s), and long enough that a normal load never shows it.
 */
export const SLOW_LOAD_MS = 5000;

/** No backend address for LIVE (the session's transport): the developer's sentence. */
export let noBackend = said('LIVE needs baseUrl or transport');
try {
  if (process.env.NODE_ENV !== 'production') {
    noBackend = said(
      'no backend address for LIVE: pass the baseUrl of your backend or a transport',
    );
  }
} catch {
  // No bundler: the gist.
}

/** `action` was called before a valid createPayment. */
export const beforeCreatePayment = (action: string): string => {
  let message = said(`${action} before createPayment`);
  try {
    if (process.env.NODE_ENV !== 'production') {
      message = said(
        `${action} needs a valid payment: call createPayment({ amount, paymentReference }) first`,
      );
    }
  } catch {
    // No bundler: the gist.
  }
  return message;
};

/** payWithInstitution was called while no component is in the page. */
export let beforeMount = said('payWithInstitution before the component is rendered');
try {
  if (process.env.NODE_ENV !== 'production') {
    beforeMount = said(
      'payWithInstitution needs the component in the page (rendered, or injectComponent called): its redirect would be lost',
    );
  }
} catch {
  // No bundler: the gist.
}

/** In development: isWebView is for Android hosts (spec 4.4 rule 3). */
export function warnWebViewOnIos(options: SessionOptions): void {
  try {
    if (
      process.env.NODE_ENV !== 'production' &&
      options.isWebView &&
      /iPhone|iPad|iPod/.test(navigator.userAgent)
    ) {
      warn(
        'isWebView is for Android WebView hosts only and must not be used on iOS (spec 4.4 rule 3).',
      );
    }
  } catch {
    // No bundler (no `process`) or no navigator: no warning.
  }
}
