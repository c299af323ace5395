import resultCss from '../styles/result.css?raw';

/**
 * Injects the result page's stylesheet once per document, at mount, as ./styles does the
 * Pay component's (with its nonce for a strict `style-src`). A function of its own so that
 * the Pay component's bundle carries neither it nor its CSS.
 */
export function injectResultStylesheet(nonce: string | undefined): void {
  if (document.head.querySelector('style[data-servicepay="result"]')) return;
  const style = document.createElement('style');
  style.dataset.servicepay = 'result';
  if (nonce) style.setAttribute('nonce', nonce);
  style.textContent = resultCss;
  document.head.append(style);
}
