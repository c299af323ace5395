import { afterEach, describe, expect, it, vi } from 'vitest';
import { hasAppLinkFragment, stripAppLinkFragment } from '../../src/core';
import { defaultInitiatedPayment, reply } from '../helpers/fake-transport';
import { BANK, VALID_PAYMENT, mountReady, setup } from './support/harness';

// Spec 4.4 rule 3: with isWebView the authorisation URL ends with #OPEN_AS_APPLINK, which
// the Android host must strip before opening it; never on iOS.

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.0.0 Mobile Safari/537.36';
const IOS_WARNING =
  'servicepay: isWebView is for Android WebView hosts only and must not be used on iOS (spec 4.4 rule 3).';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function openedWith(isWebView: boolean, authorisationUrl?: string) {
  const { session, transport, log } = setup({ isWebView });
  if (authorisationUrl) {
    transport.replyOnce('initiatePayment', reply.resolve({ paymentId: 'p-1', authorisationUrl }));
  }
  await mountReady(session);
  session.createPayment(VALID_PAYMENT);
  await session.payWithInstitution(BANK);
  expect(log.errors()).toEqual([]);
  return log.openedUrls();
}

describe('isWebView', () => {
  it('appends #OPEN_AS_APPLINK to the URL passed to openUrl', async () => {
    expect(await openedWith(true)).toEqual([
      `${defaultInitiatedPayment(1).authorisationUrl}#OPEN_AS_APPLINK`,
    ]);
  });

  it('replaces a fragment the URL already had', async () => {
    expect(await openedWith(true, 'https://bank.example/authorise?p=1#state=xyz')).toEqual([
      'https://bank.example/authorise?p=1#OPEN_AS_APPLINK',
    ]);
  });

  it('leaves the URL alone without isWebView', async () => {
    expect(await openedWith(false, 'https://bank.example/authorise?p=1#state=xyz')).toEqual([
      'https://bank.example/authorise?p=1#state=xyz',
    ]);
  });

  it('warns in development when isWebView is used on an iPhone', () => {
    vi.stubGlobal('navigator', { userAgent: IPHONE_UA });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { session } = setup({ isWebView: true });
    expect(warn).not.toHaveBeenCalled();
    session.mount();
    expect(warn).toHaveBeenCalledExactlyOnceWith(IOS_WARNING);
  });

  it('does not warn on Android, nor on an iPhone without isWebView', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.stubGlobal('navigator', { userAgent: ANDROID_UA });
    setup({ isWebView: true }).session.mount();
    vi.stubGlobal('navigator', { userAgent: IPHONE_UA });
    setup({ isWebView: false }).session.mount();
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('hasAppLinkFragment / stripAppLinkFragment', () => {
  it('detect the fragment only at the end of the URL', () => {
    expect(hasAppLinkFragment('https://bank.example/a?p=1#OPEN_AS_APPLINK')).toBe(true);
    expect(hasAppLinkFragment('https://bank.example/a?p=1')).toBe(false);
    expect(hasAppLinkFragment('https://bank.example/a?p=1#OPEN_AS_APPLINK_NOT')).toBe(false);
    expect(hasAppLinkFragment('https://bank.example/a?p=1#open_as_applink')).toBe(false);
  });

  it('strip the fragment so the host can open the bare URL', () => {
    expect(stripAppLinkFragment('https://bank.example/a?p=1#OPEN_AS_APPLINK')).toBe(
      'https://bank.example/a?p=1',
    );
    expect(stripAppLinkFragment('https://bank.example/a?p=1')).toBe('https://bank.example/a?p=1');
    expect(stripAppLinkFragment('https://bank.example/a#state')).toBe(
      'https://bank.example/a#state',
    );
  });

  it('round-trip what the session opened', async () => {
    const [opened] = await openedWith(true);
    expect(hasAppLinkFragment(opened!)).toBe(true);
    expect(stripAppLinkFragment(opened!)).toBe(defaultInitiatedPayment(1).authorisationUrl);
  });
});
