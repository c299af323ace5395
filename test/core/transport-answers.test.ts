// Untrusted transport answers (issue 14, finding 5): a custom transport or a backend answering
// bad shapes. The session keeps what is usable, drops or repairs the rest, tells the merchant
// once through errorConsumer, and never throws or stores a value the page could trip on.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INSTITUTIONS, defaultInitiatedPayment, reply } from '../helpers/fake-transport';
import { BANK, VALID_PAYMENT, mountReady, setup, until } from './support/harness';

const [BARCLAYS, HSBC] = DEFAULT_INSTITUTIONS;
const FIXED = 'servicepay: fetchInstitutions answer fixed: ';
const ID_RULE = 'must be a non-blank string of at most 200 characters without control characters';

/** A session whose transport answers the bank list with `answer`, once it has settled. */
async function listFrom(answer: unknown) {
  const harness = setup();
  harness.transport.replyOnce('fetchInstitutions', reply.untyped(answer));
  harness.session.mount();
  await until(harness.session, (s) => s.institutionsState !== 'loading');
  return { ...harness, state: harness.session.getState() };
}

describe('the bank list from the transport', () => {
  it('a clean list is kept as it is, with nothing reported', async () => {
    const { state, log } = await listFrom([...DEFAULT_INSTITUTIONS]);
    expect(state.institutions).toEqual(DEFAULT_INSTITUTIONS);
    expect(log.errors()).toEqual([]);
  });

  it.each([
    ['a null item', [BARCLAYS, null, HSBC], '[1] dropped, not an object: null'],
    [
      'a name that is an object',
      [BARCLAYS, { id: 'ob-x', name: { en: 'X' } }, HSBC],
      '[1] dropped, bad name: {"en":"X"}',
    ],
    ['a missing name', [BARCLAYS, { id: 'ob-x' }, HSBC], '[1] dropped, bad name: undefined'],
    ['a blank name', [BARCLAYS, { id: 'ob-x', name: '  ' }, HSBC], '[1] dropped, bad name:   '],
    [
      'an id that is a number',
      [BARCLAYS, { id: 7, name: 'Seven' }, HSBC],
      '[1] dropped, bad id: 7',
    ],
    ['an empty id', [BARCLAYS, { id: '', name: 'Empty' }, HSBC], '[1] dropped, bad id: '],
    [
      'a duplicate id (the first wins)',
      [BARCLAYS, { ...BARCLAYS, name: 'Barclays again' }, HSBC],
      '[1] dropped, repeated id: ob-barclays',
    ],
    [
      'an item whose getter throws',
      [
        BARCLAYS,
        Object.defineProperty({ id: 'ob-x' }, 'name', {
          enumerable: true,
          get() {
            throw new Error('no name');
          },
        }),
        HSBC,
      ],
      '[1] dropped, unreadable: no name',
    ],
  ])('%s is dropped and reported once; the other banks stay', async (_name, list, problem) => {
    const { state, log } = await listFrom(list);
    expect(state.institutionsState).toBe('ready');
    expect(state.institutions).toEqual([BARCLAYS, HSBC]);
    expect(log.errors()).toEqual([{ location: 'fetchInstitutions', error: FIXED + problem }]);
    // The shopper sees the banks, not an error.
    expect(state.error).toBeNull();
    expect(state.status).toBe('idle');
  });

  it('a name that is a number is shown as its digits', async () => {
    const { state, log } = await listFrom([{ id: 'ob-42', name: 42 }]);
    expect(state.institutions).toEqual([{ id: 'ob-42', name: '42' }]);
    expect(log.errors()).toEqual([
      {
        location: 'fetchInstitutions',
        error: `${FIXED}[0] number name shown as text: 42`,
      },
    ]);
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+',
    'data:image/png,iVBORw0KGgo=',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:msgbox(1)',
    'blob:https://cdn.test/0b7f',
    'file:///etc/passwd',
    'ftp://cdn.test/icon.png',
    '/icons/relative.svg',
    42,
    true,
    {},
    ['https://cdn.test/a.svg'],
  ])('an icon %j is removed (the bank shows its initials) and reported', async (iconUrl) => {
    const { state, log } = await listFrom([{ id: 'ob-x', name: 'X Bank', iconUrl }]);
    expect(state.institutions).toEqual([{ id: 'ob-x', name: 'X Bank' }]);
    const shown = typeof iconUrl == 'object' ? JSON.stringify(iconUrl) : String(iconUrl);
    expect(log.errors()).toEqual([
      {
        location: 'fetchInstitutions',
        error: `${FIXED}[0] bad iconUrl removed: ${shown}`,
      },
    ]);
  });

  it('keeps http(s) and base64 raster icons; no icon (null or absent) is not a problem', async () => {
    const rasters = ['png', 'jpeg', 'gif', 'webp'].map((type) => ({
      id: type,
      name: type.toUpperCase(),
      iconUrl: `data:image/${type};base64,UklGRg==`,
    }));
    const list = [
      { id: 'a', name: 'A', iconUrl: 'https://cdn.test/a.svg' },
      ...rasters,
      { id: 'c', name: 'C', iconUrl: null },
      { id: 'd', name: 'D' },
    ];
    const { state, log } = await listFrom(list);
    expect(state.institutions).toEqual([
      list[0],
      ...rasters,
      { id: 'c', name: 'C' },
      { id: 'd', name: 'D' },
    ]);
    expect(log.errors()).toEqual([]);
  });

  test.prop(
    [
      fc.array(
        fc.record({
          id: fc.oneof(fc.string(), fc.anything()),
          name: fc.oneof(fc.string(), fc.anything()),
          iconUrl: fc.oneof(
            fc.webUrl(),
            fc.string(),
            fc
              .constantFrom('javascript:', 'data:', 'vbscript:', 'blob:', 'file:')
              .chain((scheme) => fc.string().map((rest) => scheme + rest)),
            fc.anything(),
          ),
        }),
        { maxLength: 8 },
      ),
    ],
    { numRuns: 200 },
  )(
    'every icon kept is an absolute http(s) URL; every bank kept has a string id and name',
    async (items) => {
      const { state } = await listFrom(items);
      for (const bank of state.institutions) {
        expect(typeof bank.id).toBe('string');
        expect(typeof bank.name).toBe('string');
        if (bank.iconUrl !== undefined && !bank.iconUrl.startsWith('data:image/')) {
          expect(new URL(bank.iconUrl).protocol).toMatch(/^https?:$/);
        }
        if (bank.iconUrl?.startsWith('data:')) {
          expect(bank.iconUrl).toMatch(/^data:image\/(png|jpeg|gif|webp);base64,[\w+/]+=*$/);
        }
      }
    },
    30_000,
  );

  it('keeps only id, name and iconUrl: nothing else the transport sent reaches the state', async () => {
    const { state } = await listFrom([{ ...BARCLAYS, onClick: 'alert(1)', __html: '<b>x</b>' }]);
    expect(state.institutions).toEqual([BARCLAYS]);
  });

  it('many problems make one report naming five and counting the rest', async () => {
    const { state, log } = await listFrom([null, null, null, null, null, null, null, HSBC]);
    expect(state.institutions).toEqual([HSBC]);
    expect(log.errors()).toHaveLength(1);
    expect(log.errors()[0]!.error).toBe(
      FIXED +
        [0, 1, 2, 3, 4].map((i) => `[${i}] dropped, not an object: null`).join('; ') +
        '; 2 more',
    );
  });

  it.each([
    ['null', null, 'null'],
    ['an object', { banks: [] }, '{"banks":[]}'],
    ['a string', 'Barclays', 'Barclays'],
  ])(
    'a list that is %s fails the fetch (reported once, Retry offered); a retry with a list works',
    async (_name, answer, shown) => {
      const { session, state, log } = await listFrom(answer);
      const error = `servicepay: fetchInstitutions resolved with ${shown}, not an array`;
      expect(state).toMatchObject({
        institutionsState: 'failed',
        status: 'error',
        institutions: [],
        error: { location: 'fetchInstitutions', error },
      });
      expect(log.errors()).toEqual([{ location: 'fetchInstitutions', error }]);

      session.retry();
      const after = await until(session, (s) => s.institutionsState === 'ready');
      expect(after.institutions).toEqual(DEFAULT_INSTITUTIONS);
      expect(after.error).toBeNull();
      expect(log.errors()).toHaveLength(1);
    },
  );
});

describe('the payment answer from the transport', () => {
  it.each([
    [
      'null',
      null,
      'servicepay: initiatePayment resolved with null, not { paymentId, authorisationUrl }',
    ],
    [
      'a string',
      'https://bank.test/a',
      'servicepay: initiatePayment resolved with https://bank.test/a, not { paymentId, authorisationUrl }',
    ],
    [
      'a numeric paymentId',
      { paymentId: 7, authorisationUrl: 'https://bank.test/a' },
      `servicepay: initiatePayment resolved with paymentId 7: it ${ID_RULE}`,
    ],
    [
      'no paymentId',
      { authorisationUrl: 'https://bank.test/a' },
      `servicepay: initiatePayment resolved with paymentId undefined: it ${ID_RULE}`,
    ],
    [
      // The result page could never look it up (the one id rule): refused before the bank.
      'a paymentId with a control character',
      { paymentId: 'p\u00001', authorisationUrl: 'https://bank.test/a' },
      `servicepay: initiatePayment resolved with paymentId p\u00001: it ${ID_RULE}`,
    ],
    [
      'a javascript: URL',
      { paymentId: 'p-1', authorisationUrl: 'javascript:alert(1)' },
      'servicepay: refused to open a non-http(s) authorisation URL: javascript:alert(1)',
    ],
  ])(
    '%s is refused: reported once, nothing opened, and the next click pays',
    async (_name, answer, error) => {
      const { session, transport, log } = setup();
      transport.replyOnce('initiatePayment', reply.untyped(answer));
      await mountReady(session);
      session.createPayment(VALID_PAYMENT);
      log.clear();

      await expect(session.payWithInstitution(BANK)).resolves.toBeUndefined();
      expect(log.openUrl).not.toHaveBeenCalled();
      expect(log.errors()).toEqual([{ location: 'payWithBankInstitution', error }]);
      expect(session.getState()).toMatchObject({ paymentState: 'none', status: 'idle' });

      await session.payWithInstitution(BANK);
      expect(transport.paymentCalls).toHaveLength(2);
      // The fake numbers its default answers by call: the second call's.
      expect(log.openedUrls()).toEqual([defaultInitiatedPayment(2).authorisationUrl]);
      expect(log.errors()).toHaveLength(1);
    },
  );
});
