// @vitest-environment node
// The result page's standalone script, Service-result-<version>.min.js, as users receive it
// (`npm test` builds before it tests): what it defines, and that it works on a plain page.
import { describe, expect, it } from 'vitest';
import {
  componentVersion,
  pageWithScript as page,
  readDist as read,
  version,
} from './standalone-page';

const SCRIPT = `Service-result-${componentVersion}.min.js`;

/** A result page: the script, and the element the result goes in. */
const pageWithScript = (nonce = '') =>
  page(SCRIPT, '<div id="payment-result"></div>', 'https://shop.example/checkout/result', nonce);

describe('the result page’s standalone script', () => {
  it('defines window.ServiceResult and no other global', async () => {
    const { window, added } = await pageWithScript();
    expect(added).toEqual(['ServiceResult']);
    expect(typeof window.ServiceResult).toBe('function');
  });

  it('renders the result, with its style under the nonce of its own script tag', async () => {
    const { window } = await pageWithScript('r4nd0m');
    // No ids in the address and none saved: the not-found state, and no request.
    window.eval(
      `new window.ServiceResult({ statusUrl: '/api/payments/status' }).injectComponent('payment-result')`,
    );
    const root = window.document.querySelector('#payment-result [data-state]')!;
    await expect.poll(() => root.getAttribute('data-state')).toBe('not-found');
    expect(root.querySelector('h2')!.textContent).toBe('We can’t find your payment');
    const styles = [...window.document.querySelectorAll('style[data-servicepay]')];
    expect(styles.map((style) => style.getAttribute('nonce'))).toEqual(['r4nd0m']);
  });

  it('is minified production code with its licences, carrying no bank list', async () => {
    const code = await read(`standalone/${SCRIPT}`);
    expect(code.startsWith(`/*! servicepay ${version} | MIT | includes Preact (MIT`)).toBe(true);
    expect(code).not.toMatch(/process\.env|\brequire\(|\bimport\s*[({'"]|^export /m);
    expect(code).not.toContain('Choose your bank');
    expect(code.split('\n').length).toBeLessThanOrEqual(3);
  });
});
