/**
 * Injects a stylesheet that only some parts need (the result page's, the handoff panel's)
 * once per document, at mount, as ./styles does the Pay component's (with its nonce for a
 * strict `style-src`). Each caller imports its own CSS, so that a bundle carries only the
 * sheets it uses, and the Pay component's bundle none of them.
 */
export function injectPartStylesheet(kind: string, css: string, nonce: string | undefined): void {
  if (document.head.querySelector(`style[data-servicepay="${kind}"]`)) return;
  const style = document.createElement('style');
  style.dataset.servicepay = kind;
  if (nonce) style.setAttribute('nonce', nonce);
  style.textContent = css;
  document.head.append(style);
}
