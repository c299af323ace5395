import serviceCss from '../styles/service.css?raw';
import tailwindCss from '../styles/tailwind.css?raw';

/**
 * Injects a stylesheet once per document, at mount (never at import or render, so server
 * rendering and CSP stay clean). The nonce lets it pass a strict `style-src`.
 */
export function injectStylesheet(kind: 'service' | 'tailwind', nonce: string | undefined): void {
  if (document.head.querySelector(`style[data-servicepay="${kind}"]`)) return;
  const style = document.createElement('style');
  style.dataset.servicepay = kind;
  if (nonce) style.setAttribute('nonce', nonce);
  style.textContent = kind === 'service' ? serviceCss : tailwindCss;
  document.head.append(style);
}
