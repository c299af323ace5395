import type { ServiceError } from '../core/index';
import { said, warn } from '../core/internal';

/**
 * Injects a stylesheet once per document (the component's, its utilities', the result page's,
 * the handoff panel's), at mount: never at import or render, so server rendering and CSP stay
 * clean. The nonce lets it pass a strict `style-src`. Each caller imports its own CSS, so that
 * a bundle carries only the sheets it uses (the Pay component's, none of the result's).
 * `watch` sees the element before it goes in ({@link cspWatch}).
 */
export function injectStylesheet(
  kind: string,
  css: string,
  nonce?: string,
  watch?: (style: HTMLStyleElement) => void,
): void {
  // Unquoted: every kind is a plain word (service, tailwind, result, handoff).
  if (document.head.querySelector(`style[data-servicepay=${kind}]`)) return;
  const style = document.createElement('style');
  style.dataset.servicepay = kind;
  if (nonce) style.setAttribute('nonce', nonce);
  style.textContent = css;
  watch?.(style);
  document.head.append(style);
}

/**
 * In development, what watches the component's `<style>` elements for the page's CSP refusing
 * them (the component then shows unstyled, and nothing else in code says so) and tells the
 * merchant once: errorConsumer at fetchInstitutions, else the console. Undefined in
 * production, as the other development reports.
 */
export function cspWatch(
  errorConsumer: ((error: ServiceError) => void) | undefined,
): ((style: HTMLStyleElement) => void) | undefined {
  let watch: ((style: HTMLStyleElement) => void) | undefined;
  try {
    if (process.env.NODE_ENV !== 'production') {
      // The component's sheets are refused together: one report for them.
      let told = false;
      const tell = (event: SecurityPolicyViolationEvent) => {
        if (told) return;
        told = true;
        const text = `the page's Content-Security-Policy (${event.effectiveDirective}) blocked the component's styles, so it shows unstyled: pass your page's CSP nonce as nonce (the standalone script takes its own tag's), which its <style> elements then carry`;
        if (errorConsumer) errorConsumer({ location: 'fetchInstitutions', error: said(text) });
        else warn(text);
      };
      // The violation is dispatched at the element itself: only this sheet's.
      watch = (style) => style.addEventListener('securitypolicyviolation', tell);
    }
  } catch {
    // No bundler: no report.
  }
  return watch;
}
