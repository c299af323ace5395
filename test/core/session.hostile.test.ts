// Hostile input to the engine (issue 7): metadata and arguments built to pollute prototypes,
// exhaust the stack or memory, or throw from inside the validation; authorisation URLs that
// would run script or leave the bank; institution icons that would. Each is refused with the
// documented error or passed through as plain JSON, and nothing ever throws out of the session.
import { fc, test } from '@fast-check/vitest';
import { types } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpTransport, createPaymentSession } from '../../src/core';
import type { PaymentInitiation } from '../../src/core';
import { createEventLog } from '../helpers/event-log';
import { reply } from '../helpers/fake-transport';
import { APP_ID, BANK, VALID_PAYMENT, mountReady, setup, until } from './support/harness';
import { NOT_OBJECT, isPlainJson, parseSpecError } from './support/oracle';

const SERIALISABLE = 'must be serialisable to JSON';
const TOO_LONG = 'must not be longer than 5000 characters after serialisation';

const prototypeNames = () => ({
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
});
const pristine = prototypeNames();

/** Nothing was added to the built-in prototypes. */
function expectNoPollution(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
  expect(prototypeNames()).toEqual(pristine);
}

function nested(depth: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

function throwingGetter(enumerable = true): Record<string, unknown> {
  return Object.defineProperty({ orderId: 1042 }, 'secret', {
    enumerable,
    get() {
      throw new Error('getter says no');
    },
  });
}

function cyclic(): Record<string, unknown> {
  const node: Record<string, unknown> = { orderId: 1042 };
  node.self = node;
  return node;
}

const throwing = (trap: keyof ProxyHandler<object>) =>
  new Proxy(
    { orderId: 1042 },
    {
      [trap]() {
        throw new Error(`${trap} trap says no`);
      },
    },
  );

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({ orderId: 1042 }, {});
  revoke();
  return proxy;
}

let reads = 0;
const shifty = Object.defineProperty({}, 'total', {
  enumerable: true,
  get: () => (++reads === 1 ? 12.5 : { injected: 'x'.repeat(6000) }),
});

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  expectNoPollution();
});

// --- metadata -----------------------------------------------------------------------------------

type Expect = { sent: unknown } | { refused: string[] } | 'either';

const metadataCases: [string, () => unknown, Expect][] = [
  [
    '__proto__ key from JSON.parse',
    () => JSON.parse('{"__proto__":{"polluted":"yes"}}'),
    { sent: JSON.parse('{"__proto__":{"polluted":"yes"}}') },
  ],
  [
    'constructor.prototype keys from JSON.parse',
    () => JSON.parse('{"constructor":{"prototype":{"polluted":"yes"}}}'),
    { sent: { constructor: { prototype: { polluted: 'yes' } } } },
  ],
  [
    'a prototype key',
    () => JSON.parse('{"prototype":{"polluted":"yes"}}'),
    { sent: { prototype: { polluted: 'yes' } } },
  ],
  [
    '__proto__ keys nested in objects and arrays',
    () => JSON.parse('{"a":{"__proto__":{"polluted":"yes"}},"b":[{"__proto__":{"polluted":1}}]}'),
    {
      sent: JSON.parse('{"a":{"__proto__":{"polluted":"yes"}},"b":[{"__proto__":{"polluted":1}}]}'),
    },
  ],
  [
    '__proto__ defined with Object.defineProperty',
    () =>
      Object.defineProperty({}, '__proto__', {
        value: { polluted: 'yes' },
        enumerable: true,
        writable: true,
        configurable: true,
      }),
    { sent: JSON.parse('{"__proto__":{"polluted":"yes"}}') },
  ],
  [
    'constructor defined with Object.defineProperty',
    () =>
      Object.defineProperty({}, 'constructor', {
        value: { prototype: { polluted: 'yes' } },
        enumerable: true,
      }),
    { sent: { constructor: { prototype: { polluted: 'yes' } } } },
  ],
  [
    'a literal __proto__ (an object with another prototype)',
    () => ({ __proto__: { polluted: 'yes' } }),
    { refused: [NOT_OBJECT] },
  ],
  ['100000 levels of objects', () => nested(100_000, 1, (inner) => ({ a: inner })), 'either'],
  ['100000 levels of arrays', () => ({ a: nested(100_000, 1, (inner) => [inner]) }), 'either'],
  [
    '1000 levels (6000 characters)',
    () => nested(1000, 1, (inner) => ({ a: inner })),
    { refused: [TOO_LONG] },
  ],
  ['800 levels (4801 characters)', () => nested(800, 1, (inner) => ({ a: inner })), 'either'],
  ['a 1 MB string', () => ({ note: 'x'.repeat(1 << 20) }), { refused: [TOO_LONG] }],
  ['a 1 MB key', () => ({ ['k'.repeat(1 << 20)]: 1 }), { refused: [TOO_LONG] }],
  [
    '100000 keys',
    () => Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])),
    { refused: [TOO_LONG] },
  ],
  ['an enumerable getter that throws', () => throwingGetter(), { refused: [SERIALISABLE] }],
  ['a hidden getter that throws', () => throwingGetter(false), { sent: { orderId: 1042 } }],
  ['a getter that changes its answer', () => shifty, { sent: { total: 12.5 } }],
  [
    'a toJSON that throws',
    () => ({
      toJSON() {
        throw new Error('toJSON says no');
      },
    }),
    { refused: [SERIALISABLE] },
  ],
  ['a toJSON that returns a string', () => ({ toJSON: () => 'text' }), { refused: [NOT_OBJECT] }],
  [
    'a toJSON that returns 1 MB',
    () => ({ toJSON: () => 'x'.repeat(1 << 20) }),
    { refused: [TOO_LONG] },
  ],
  ['a transparent Proxy', () => new Proxy({ orderId: 1042 }, {}), { sent: { orderId: 1042 } }],
  // Bug: after refusing it as not serialisable, errors.ts describeValue falls back to
  // Object.prototype.toString.call(value), outside its try: that reads
  // Symbol.toStringTag through the get trap, which throws out of createPayment.
  ['a Proxy whose get trap throws', () => throwing('get'), 'either'],
  ['a Proxy whose ownKeys trap throws', () => throwing('ownKeys'), 'either'],
  // Bug: validation.ts isPlainObject calls Object.getPrototypeOf unguarded; a trap
  // that throws, or a revoked Proxy, throws out of createPayment.
  ['a Proxy whose getPrototypeOf trap throws', () => throwing('getPrototypeOf'), 'either'],
  [
    'a Proxy whose getOwnPropertyDescriptor trap throws',
    () => throwing('getOwnPropertyDescriptor'),
    'either',
  ],
  ['a revoked Proxy', revoked, 'either'],
  [
    'a Proxy claiming Object.prototype over a Map',
    () => new Proxy(new Map([['a', 1]]), { getPrototypeOf: () => Object.prototype }),
    'either',
  ],
  ['a BigInt value', () => ({ amount: 10n }), { refused: [SERIALISABLE] }],
  ['a BigInt', () => 10n, { refused: [NOT_OBJECT] }],
  ['a Symbol', () => Symbol('metadata'), { refused: [NOT_OBJECT] }],
  [
    'Symbol keys and values',
    () => ({ [Symbol('key')]: 1, tag: Symbol('value'), kept: true }),
    { sent: { kept: true } },
  ],
  ['a function', () => () => ({ orderId: 1042 }), { refused: [NOT_OBJECT] }],
  ['function values', () => ({ run: () => 1, kept: 1 }), { sent: { kept: 1 } }],
  ['a cycle', cyclic, { refused: [SERIALISABLE] }],
  ['a Date', () => new Date(0), { refused: [NOT_OBJECT] }],
  ['a Map', () => new Map([['orderId', 1042]]), { refused: [NOT_OBJECT] }],
  ['a typed array', () => new Uint8Array(4), { refused: [NOT_OBJECT] }],
  ['an Error', () => new Error('x'), { refused: [NOT_OBJECT] }],
  [
    'an object inheriting its keys',
    () => Object.create({ orderId: 1042 }),
    { refused: [NOT_OBJECT] },
  ],
  ['an array', () => ['order', 1042], { refused: [NOT_OBJECT] }],
  [
    'an object without a prototype',
    () => Object.assign(Object.create(null), { orderId: 1042 }),
    { sent: { orderId: 1042 } },
  ],
  [
    'NaN, Infinity and -0',
    () => ({ a: Number.NaN, b: Number.POSITIVE_INFINITY, c: -0 }),
    { sent: { a: null, b: null, c: 0 } },
  ],
  ['lone surrogates', () => ({ s: '\ud800x\udfff' }), { sent: { s: '\ud800x\udfff' } }],
  [
    'toString and valueOf that are not functions',
    () => ({ toString: 1, valueOf: 'x', hasOwnProperty: null }),
    { sent: { toString: 1, valueOf: 'x', hasOwnProperty: null } },
  ],
];

/**
 * A session paying through the HTTP transport, the JSON body it sent captured; the backend
 * answers with `authorisationUrl`.
 */
function httpSession(authorisationUrl = 'https://bank.test/a') {
  const bodies: string[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    if (String(url).includes('/v1/payments')) {
      bodies.push(String(init?.body));
      return Response.json({ paymentId: 'p-1', authorisationUrl }, { status: 201 });
    }
    return Response.json({ institutions: [{ id: BANK, name: 'Monzo' }] });
  });
  const log = createEventLog();
  const session = createPaymentSession({
    environment: 'SANDBOX',
    applicationId: APP_ID,
    transport: createHttpTransport({ baseUrl: 'https://backend.test', fetch }),
    errorConsumer: log.errorConsumer,
    openUrl: log.openUrl,
  });
  return { session, bodies, log };
}

describe('malicious metadata', () => {
  it.each(metadataCases)(
    '%s: refused with the spec error or sent as plain JSON, never thrown',
    async (_name, make, expected) => {
      reads = 0;
      const { session, transport, log } = setup();
      await mountReady(session);
      log.clear();
      const metadata = make();

      let accepted: boolean | undefined;
      expect(() => {
        accepted = session.createPayment({ ...VALID_PAYMENT, metadata });
      }).not.toThrow();
      await expect(session.payWithInstitution(BANK)).resolves.toBeUndefined();
      expectNoPollution();

      if (accepted) {
        expect(expected, 'accepted, but it must be refused').not.toHaveProperty('refused');
        expect(transport.paymentRequests).toHaveLength(1);
        const sent = transport.paymentRequests[0]!;
        expect(isPlainJson(sent, types.isProxy)).toBe(true);
        expect(Object.getPrototypeOf(sent.paymentMetadata)).toBe(Object.prototype);
        if (typeof expected === 'object' && 'sent' in expected) {
          expect(JSON.stringify(sent.paymentMetadata)).toBe(JSON.stringify(expected.sent));
        }
        return;
      }
      expect(expected, 'refused, but it must be sent').not.toHaveProperty('sent');
      expect(transport.paymentCalls).toEqual([]);
      const refusal = log.errors()[0]!;
      expect(refusal.location).toBe('payWithBankInstitution');
      const parsed = parseSpecError(refusal.error);
      expect(parsed).toMatchObject({ field: 'paymentMetadata' });
      expect(
        typeof expected === 'object' && 'refused' in expected
          ? expected.refused
          : [NOT_OBJECT, SERIALISABLE, TOO_LONG],
      ).toContain(parsed!.reason);
      // A megabyte of input never makes a megabyte of message.
      expect(refusal.error.length).toBeLessThan(400);
    },
  );

  it('what the HTTP transport sends for prototype keys is their JSON, and parsing it back pollutes nothing', async () => {
    const { session, bodies } = httpSession();
    await mountReady(session);
    const metadata = JSON.parse(
      '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}',
    );
    expect(session.createPayment({ ...VALID_PAYMENT, metadata })).toBe(true);
    await session.payWithInstitution(BANK);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toContain(
      '"paymentMetadata":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}',
    );
    const received = JSON.parse(bodies[0]!) as PaymentInitiation;
    expect(Object.keys(received.paymentMetadata!)).toEqual(['__proto__', 'constructor']);
    expectNoPollution();
  });

  test.prop(
    [
      fc.object({
        key: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'polluted', 'a'),
        maxDepth: 4,
        withNullPrototype: true,
        withBigInt: true,
        withBoxedValues: true,
        withTypedArray: true,
      }),
    ],
    { numRuns: 300 },
  )(
    'any object built from prototype-ish keys: refused or sent as its JSON, and nothing polluted',
    async (metadata) => {
      const { session, transport, log } = setup();
      await mountReady(session);
      let accepted: boolean | undefined;
      expect(() => {
        accepted = session.createPayment({ ...VALID_PAYMENT, metadata });
      }).not.toThrow();
      await session.payWithInstitution(BANK);
      expectNoPollution();
      if (accepted) {
        const sent = transport.paymentRequests[0]!;
        expect(isPlainJson(sent, types.isProxy)).toBe(true);
        expect(JSON.stringify(sent.paymentMetadata)).toBe(JSON.stringify(metadata));
      } else {
        expect(transport.paymentCalls).toEqual([]);
        expect(parseSpecError(log.errors()[0]?.error ?? '')?.field).toBe('paymentMetadata');
      }
    },
    30_000,
  );
});

// --- the argument itself ------------------------------------------------------------------------

// Bug: validation.ts validatePaymentArgs reads the argument unguarded: isPlainObject(args),
// the destructuring of its fields, args.metadata and `'currency' in args`. A getter or a Proxy trap that throws escapes createPayment,
// where the README promises that nothing is ever thrown into the page.
const argumentCases: [string, () => unknown][] = [
  [
    'an amount getter that throws',
    () =>
      Object.defineProperty({ paymentReference: 'ORDER-1' }, 'amount', {
        enumerable: true,
        get() {
          throw new Error('getter says no');
        },
      }),
  ],
  [
    'a metadata getter that throws',
    () =>
      Object.defineProperty({ ...VALID_PAYMENT }, 'metadata', {
        enumerable: true,
        get() {
          throw new Error('getter says no');
        },
      }),
  ],
  [
    'a Proxy whose get trap throws',
    () =>
      new Proxy(
        { ...VALID_PAYMENT },
        {
          get() {
            throw new Error('no');
          },
        },
      ),
  ],
  [
    'a Proxy whose has trap throws',
    () =>
      new Proxy(
        { ...VALID_PAYMENT },
        {
          has() {
            throw new Error('no');
          },
        },
      ),
  ],
  [
    'a Proxy whose getPrototypeOf trap throws',
    () =>
      new Proxy(
        { ...VALID_PAYMENT },
        {
          getPrototypeOf() {
            throw new Error('no');
          },
        },
      ),
  ],
  ['a revoked Proxy', revoked],
];

describe('a hostile createPayment argument', () => {
  it.each(argumentCases)('%s: reported in the spec format, never thrown', async (_name, make) => {
    const { session, transport, log } = setup();
    await mountReady(session);
    log.clear();
    let accepted: boolean | undefined;
    expect(() => {
      accepted = session.createPayment(make());
    }).not.toThrow();
    await session.payWithInstitution(BANK);
    expect(accepted).toBe(false);
    expect(transport.paymentCalls).toEqual([]);
    expect(parseSpecError(log.errors()[0]?.error ?? '')).toBeDefined();
  });

  it('a transparent Proxy is read once and what is sent is plain data', async () => {
    const { session, transport } = setup();
    await mountReady(session);
    expect(session.createPayment(new Proxy({ ...VALID_PAYMENT, metadata: { a: 1 } }, {}))).toBe(
      true,
    );
    await session.payWithInstitution(BANK);
    expect(isPlainJson(transport.paymentRequests[0], types.isProxy)).toBe(true);
  });

  it('an amount getter is read once: the value checked is the value sent', async () => {
    let amountReads = 0;
    const args = Object.defineProperty({ paymentReference: 'ORDER-1' }, 'amount', {
      enumerable: true,
      get: () => (++amountReads === 1 ? 12.5 : -1),
    });
    const { session, transport } = setup();
    await mountReady(session);
    expect(session.createPayment(args)).toBe(true);
    await session.payWithInstitution(BANK);
    expect(transport.paymentRequests[0]!.paymentRequest.amount).toBe(12.5);
    expect(amountReads).toBe(1);
  });

  it('an own __proto__ key does not smuggle in fields', async () => {
    const { session, transport } = setup();
    await mountReady(session);
    const args = JSON.parse(
      '{"amount":12.5,"paymentReference":"ORDER-1","__proto__":{"agentType":"TABLET","currency":"EUR","metadata":{"x":1}}}',
    );
    expect(session.createPayment(args)).toBe(true);
    await session.payWithInstitution(BANK);
    const sent = transport.paymentRequests[0]!;
    expect(sent.agentType).toBe('WEB_BROWSER');
    expect(sent.paymentRequest.currency).toBe('GBP');
    expect(sent).not.toHaveProperty('paymentMetadata');
  });

  it.each([
    ['an object with another prototype', { __proto__: { ...VALID_PAYMENT } }, 'paymentRequest'],
    [
      'a reference that converts to a string',
      { amount: 1, paymentReference: { toString: (): string => 'R' } },
      'paymentRequest.reference',
    ],
    ['a boxed amount', { amount: Object(12.5), paymentReference: 'R' }, 'paymentRequest.amount'],
    ['an amount string', { amount: '12.50', paymentReference: 'R' }, 'paymentRequest.amount'],
    [
      'a 1 MB reference',
      { amount: 1, paymentReference: 'x'.repeat(1 << 20) },
      'paymentRequest.reference',
    ],
  ])('%s is refused, not coerced', async (_name, args, field) => {
    const { session, transport, log } = setup();
    await mountReady(session);
    log.clear();
    expect(session.createPayment(args)).toBe(false);
    await session.payWithInstitution(BANK);
    expect(transport.paymentCalls).toEqual([]);
    expect(parseSpecError(log.errors()[0]!.error)?.field).toBe(field);
    expect(log.errors()[0]!.error.length).toBeLessThan(400);
  });
});

// --- authorisation URLs -------------------------------------------------------------------------

const refusedUrls = [
  'javascript:alert(document.cookie)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  '\tjavascript:alert(1)',
  'java\nscript:alert(1)',
  'javascript://bank.test/%0aalert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'blob:https://bank.test/0b7f',
  'ftp://bank.test/authorise',
  'about:blank',
  '/authorise?payment=1',
  'authorise?payment=1',
  '//evil.example/authorise',
  '\\\\evil.example\\authorise',
  '',
  ' ',
];

describe('authorisation URLs', () => {
  it.each(refusedUrls.flatMap((url) => [[url, false] as const, [url, true] as const]))(
    'refuses %j (isWebView %s): reported, openUrl never called',
    async (authorisationUrl, isWebView) => {
      const { session, transport, log } = setup({ isWebView });
      transport.replyOnce('initiatePayment', reply.resolve({ paymentId: 'p-1', authorisationUrl }));
      await mountReady(session);
      session.createPayment(VALID_PAYMENT);
      log.clear();
      await session.payWithInstitution(BANK);
      expect(log.openUrl).not.toHaveBeenCalled();
      expect(log.errors()).toEqual([
        {
          location: 'payWithBankInstitution',
          error: `servicepay: refused to open a non-http(s) authorisation URL: ${authorisationUrl}`,
        },
      ]);
      expect(session.getState().paymentState).toBe('none');
    },
  );

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['an array holding a URL', ['https://bank.test/a']],
    ['a URL object', new URL('https://bank.test/a')],
    ['an object converting to a URL', { toString: () => 'https://bank.test/a' }],
    // Bug: session.ts builds the refusal with String(url), which throws for an object
    // without a prototype: payWithInstitution rejects instead of reporting.
    ['an object without a prototype', Object.create(null)],
  ])(
    'refuses a custom transport answering %s: reported, never thrown, openUrl never called',
    async (_name, authorisationUrl) => {
      const { session, transport, log } = setup();
      transport.replyOnce(
        'initiatePayment',
        reply.resolve({ paymentId: 'p-1', authorisationUrl: authorisationUrl as string }),
      );
      await mountReady(session);
      session.createPayment(VALID_PAYMENT);
      log.clear();
      await expect(session.payWithInstitution(BANK)).resolves.toBeUndefined();
      expect(log.openUrl).not.toHaveBeenCalled();
      expect(log.errors()).toHaveLength(1);
      expect(log.errors()[0]!.error).toMatch(
        /^servicepay: refused to open a non-http\(s\) authorisation URL: /,
      );
    },
  );

  it.each(['javascript:alert(1)', '//evil.example/a', 'data:text/html,x'])(
    'refuses %j from the HTTP transport too',
    async (authorisationUrl) => {
      const { session, log } = httpSession(authorisationUrl);
      await mountReady(session);
      session.createPayment(VALID_PAYMENT);
      await session.payWithInstitution(BANK);
      expect(log.openUrl).not.toHaveBeenCalled();
      expect(log.errors().map((e) => e.error)).toEqual([
        `servicepay: refused to open a non-http(s) authorisation URL: ${authorisationUrl}`,
      ]);
    },
  );

  it.each([
    'https://bank.test/authorise?p=1',
    'HTTPS://BANK.TEST/authorise',
    'http://localhost:4010/bank',
  ])('opens %j (an absolute http(s) URL)', async (authorisationUrl) => {
    const { session, transport, log } = setup();
    transport.replyOnce('initiatePayment', reply.resolve({ paymentId: 'p-1', authorisationUrl }));
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    expect(log.openedUrls()).toEqual([authorisationUrl]);
  });

  test.prop(
    [
      fc.oneof(
        fc.webUrl(),
        fc.string(),
        fc.constantFrom(...refusedUrls).map((u) => `${u}x`),
      ),
    ],
    {
      numRuns: 200,
    },
  )('openUrl only ever receives an absolute http(s) URL', async (authorisationUrl) => {
    const { session, transport, log } = setup();
    transport.replyOnce('initiatePayment', reply.resolve({ paymentId: 'p-1', authorisationUrl }));
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    for (const url of log.openedUrls()) expect(new URL(url).protocol).toMatch(/^https?:$/);
    expect(log.openedUrls().length + log.errors().length).toBe(1);
  });
});

// --- institution icons --------------------------------------------------------------------------

/** The banks a session shows when its HTTP transport's backend answers `body`. */
async function institutionsFrom(body: string) {
  const fetch = vi.fn(
    async () => new Response(body, { headers: { 'content-type': 'application/json' } }),
  );
  const session = createPaymentSession({
    environment: 'SANDBOX',
    applicationId: APP_ID,
    transport: createHttpTransport({ baseUrl: 'https://backend.test/sp', fetch }),
  });
  const unmount = session.mount();
  const { institutions } = await until(session, (s) => s.institutionsState === 'ready');
  unmount();
  return institutions;
}

// The icon rule itself (which schemes, which data URLs) is pinned in transport-answers.test.ts;
// here, what the HTTP transport's resolution and a hostile JSON body add to it.
describe('institution icons from the HTTP transport, as the session shows them', () => {
  it('keeps http(s) icons as absolute URLs, and names with markup as plain strings', async () => {
    const name = '<img src=x onerror=alert(1)>';
    expect(
      await institutionsFrom(
        JSON.stringify({
          institutions: [
            { id: 'a', name, iconUrl: 'https://cdn.test/a.svg' },
            { id: 'b', name: 'B', iconUrl: '/icons/b.svg' },
            { id: 'c', name: 'C', iconUrl: '//cdn.test/c.svg' },
          ],
        }),
      ),
    ).toEqual([
      { id: 'a', name, iconUrl: 'https://cdn.test/a.svg' },
      { id: 'b', name: 'B', iconUrl: 'https://backend.test/icons/b.svg' },
      { id: 'c', name: 'C', iconUrl: 'https://cdn.test/c.svg' },
    ]);
  });

  it('an own __proto__ key in the answer neither supplies an icon nor pollutes', async () => {
    const list = await institutionsFrom(
      '{"institutions":[{"id":"a","name":"A","__proto__":{"iconUrl":"javascript:alert(1)","polluted":"yes"}}],"__proto__":{"polluted":"yes"}}',
    );
    expect(list).toEqual([{ id: 'a', name: 'A' }]);
    expect(Object.getPrototypeOf(list[0])).toBe(Object.prototype);
    expectNoPollution();
  });
});
