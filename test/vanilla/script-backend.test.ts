// Which backend a standalone script talks to in SANDBOX when the page gives none: the
// sandbox that served it from its script host, else core's default (the end-to-end proof is
// test/e2e/hosted-sandbox.test.ts).
import { describe, expect, it } from 'vitest';
import { scriptBackend, setScriptAddress } from '../../src/vanilla/script-backend';

describe('the standalone script’s backend', () => {
  it.each([
    ['http://127.0.0.1:53121/js/Service-0.9.3.min.js', 'http://127.0.0.1:53121'],
    ['https://sandbox.shop.test/js/Service-1.10.0.min.js', 'https://sandbox.shop.test'],
    // A copy the merchant hosts elsewhere, the bare address, another file, no address.
    ['https://shop.test/static/js/Service-0.9.3.min.js', undefined],
    ['https://shop.test/js/', undefined],
    ['https://shop.test/js/Service-extras-0.9.3.min.js', undefined],
    ['javascript:alert(1)//js/Service-0.9.3.min.js', undefined],
    [undefined, undefined],
  ])('%s → %s', (src, backend) => {
    setScriptAddress(src);
    expect(scriptBackend).toBe(backend);
  });
});
