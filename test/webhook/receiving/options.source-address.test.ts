// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { WebhookConfigError } from '../../../src/webhook/index';
import { canonicalAddress, createAddressFilter } from '../../../src/webhook/receiving/options';

describe('source addresses', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['0:0::1', '::1'],
    ['[::1]', '::1'],
    ['2001:DB8::0:1', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
  ])('%s is %s', (input, canonical) => {
    expect(canonicalAddress(input)).toBe(canonical);
  });

  it.each(['example.com', '127.1', '300.1.1.1', '', 'not:an:ip:::'])(
    '%s is not an address',
    (input) => {
      expect(canonicalAddress(input)).toBeNull();
    },
  );

  it('matches canonical forms and refuses everything else', () => {
    const allowed = createAddressFilter(['203.0.113.7', '2001:db8::1']);
    expect(allowed?.('::ffff:203.0.113.7')).toBe(true);
    expect(allowed?.('2001:0db8:0000::1')).toBe(true);
    expect(allowed?.('203.0.113.8')).toBe(false);
    expect(allowed?.(undefined)).toBe(false);
    expect(allowed?.('garbage')).toBe(false);
  });

  it('no list allows every address; a bad list is a configuration error', () => {
    expect(createAddressFilter(undefined)).toBeNull();
    expect(() => createAddressFilter([])).toThrow(WebhookConfigError);
    expect(() => createAddressFilter(['10.0.0.0/8'])).toThrow(/ranges are not supported/);
  });
});
