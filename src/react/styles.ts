/**
 * Injects a stylesheet once per document (the component's, its utilities', the result page's,
 * the handoff panel's), at mount: never at import or render, so server rendering and CSP stay
 * clean. The nonce lets it pass a strict `style-src`. Each caller imports its own CSS, so that
 * a bundle carries only the sheets it uses (the Pay component's, none of the result's).
 */
export function injectStylesheet(kind: string, css: string, nonce?: string): void {
  // Unquoted: every kind is a plain word (service, tailwind, result, handoff).
  if (document.head.querySelector(`style[data-servicepay=${kind}]`)) return;
  const style = document.createElement('style');
  style.dataset.servicepay = kind;
  if (nonce) style.setAttribute('nonce', nonce);
  style.textContent = css;
  document.head.append(style);
}
