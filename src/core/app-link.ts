/** The fragment the component appends to the authorisation URL when `isWebView` is set (spec 4.4 rule 3). */
export const APP_LINK_FRAGMENT = '#OPEN_AS_APPLINK';

/** Whether a URL the WebView is asked to open carries the app-link fragment. */
export function hasAppLinkFragment(url: string): boolean {
  return url.endsWith(APP_LINK_FRAGMENT);
}

/**
 * The URL to hand to the system browser or an external intent: the fragment must be removed
 * first, or some banks fail the whole payment.
 */
export function stripAppLinkFragment(url: string): string {
  return hasAppLinkFragment(url) ? url.slice(0, -APP_LINK_FRAGMENT.length) : url;
}

/** Adds the fragment, replacing any fragment the URL already had. */
export const addAppLinkFragment = (url: string): string => url.split('#')[0] + APP_LINK_FRAGMENT;
