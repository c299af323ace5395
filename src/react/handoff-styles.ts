import handoffCss from '../styles/handoff.css?raw';

/**
 * Injects the handoff panel's stylesheet once per document, at mount, as ./styles does the
 * component's (with its nonce for a strict `style-src`). A module of its own, imported only by
 * the panel's chunk, so that the Pay component's bundle carries neither it nor its CSS.
 */
export function injectHandoffStylesheet(nonce: string | undefined): void {
  if (document.head.querySelector('style[data-servicepay="handoff"]')) return;
  const style = document.createElement('style');
  style.dataset.servicepay = 'handoff';
  if (nonce) style.setAttribute('nonce', nonce);
  style.textContent = handoffCss;
  document.head.append(style);
}
