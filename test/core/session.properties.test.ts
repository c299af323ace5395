// Property-based tests of the session's whole input surface (issue 7): any createPayment
// argument, any options object and any value passed to the wrong-call-prone methods. Nothing
// ever throws out of the session; every refusal is one error in the spec 2.4 format (or the
// README's `servicepay:` message for a wrong call) and sends nothing; every accepted payment is
// exactly one request whose every field follows from the input. The expectations come from an
// independent oracle (support/oracle.ts), not from src/core/validation.ts.
import { fc, test } from '@fast-check/vitest';
import { types } from 'node:util';
import { afterEach, beforeEach, describe, expect, vi } from 'vitest';
import { describeValue } from '../../src/core/errors';
import { createPaymentSession } from '../../src/core';
import type { PaymentSession, SessionOptions } from '../../src/core';
import { createEventLog } from '../helpers/event-log';
import type { EventLog } from '../helpers/event-log';
import { DEFAULT_INSTITUTIONS, createFakeTransport } from '../helpers/fake-transport';
import {
  APP_ID,
  BANK,
  NOT_PREPARED,
  VALID_PAYMENT,
  mountReady,
  setup,
  until,
} from './support/harness';
import {
  isPlainJson,
  optionsRefusal,
  parseSpecError,
  paymentVerdict,
  shown,
} from './support/oracle';
import type { Verdict } from './support/oracle';

const BANK_IDS = DEFAULT_INSTITUTIONS.map((i) => i.id);

// --- arbitraries ---------------------------------------------------------------------------

/** Any value a plain-JS caller could pass, objects without a prototype included. */
const junk = fc.anything({
  maxDepth: 2,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});

/** Junk whose String() cannot throw: for the stateful property, which is about state, not String(). */
const primitiveJunk = fc.oneof(
  fc.constantFrom(undefined, null, true, false, 0, -1, Number.NaN),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 20 }),
  fc.bigInt(),
  fc.string({ maxLength: 5 }).map((d) => Symbol(d)),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 3 }),
);

const pence = fc.integer({ min: 1, max: 10_000_000_000 });

const amount = fc.oneof(
  { weight: 6, arbitrary: pence.map((p) => p / 100) },
  // Sums of valid amounts: binary noise the README says is accepted (0.1 + 0.2).
  fc.tuple(pence, pence).map(([a, b]) => a / 100 + b / 100),
  // A third decimal.
  fc
    .integer({ min: 1, max: 1_000_000_000 })
    .filter((k) => k % 10 !== 0)
    .map((k) => k / 1000),
  fc.double(),
  fc.constantFrom(
    0,
    -0,
    -12.5,
    0.004,
    0.005,
    0.01,
    0.015,
    1e-9,
    1.005,
    Number.MIN_VALUE,
    Number.MAX_SAFE_INTEGER / 100,
    90_071_992_547_409.91,
    1e21,
    Number.MAX_VALUE,
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ),
  fc.constantFrom(null, undefined, '12.50', 12n, true),
  junk,
);

const reference = fc.oneof(
  { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 18 }).filter((s) => /\S/.test(s)) },
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
  fc.constantFrom(
    '',
    ' ',
    '\t\n',
    '\u00a0',
    '\u3000\ufeff',
    'ABCDEFGHIJKLMNOPQR',
    'ABCDEFGHIJKLMNOPQRS',
    '😀'.repeat(9),
    '😀'.repeat(10),
    '<b>x</b>',
  ),
  fc.string({ minLength: 19, maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 25 }),
  junk,
);

const merchantPaymentId = fc.oneof(
  { weight: 4, arbitrary: fc.uuid() },
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.constantFrom('', ' ', '\n', 'order 1042', 'a/b', 'café-ü', 'a\u0000b', 'tab\t', 'del\u007f'),
  // Around the 200-character bound.
  fc.string({ minLength: 199, maxLength: 202 }),
  junk,
);

const jsonObject = fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), {
  maxKeys: 6,
});

/** Metadata whose JSON is exactly `length` characters. */
const ofLength = (length: number) => ({ note: 'x'.repeat(length - '{"note":""}'.length) });

const metadata = fc.oneof(
  { weight: 4, arbitrary: jsonObject },
  fc.object({
    maxDepth: 2,
    withNullPrototype: true,
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withBoxedValues: true,
  }),
  // JSON of 4990 to 5010 characters, around the 5000 limit (and often exactly at it).
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.constantFrom(4999, 5000, 5001), fc.integer({ min: 4990, max: 5010 }))
      .map(ofLength),
  },
  fc.constantFrom(null, 42, 'text', ['a'], [], new Date(0)),
  fc.jsonValue(),
  junk,
);

const agentType = fc.constantFrom('WEB_BROWSER' as const, 'MOBILE_APPLICATION' as const);

const fields = {
  amount,
  paymentReference: reference,
  currency: fc.oneof(fc.constant('GBP'), fc.constantFrom('gbp', 'EUR', '', undefined, null), junk),
  merchantPaymentId,
  metadata,
  agentType: fc.oneof(agentType, fc.constantFrom('web_browser', 'TABLET', ''), junk),
};

/** The same fields, each always valid. */
const validFields = {
  amount: fc.oneof(
    { weight: 3, arbitrary: pence.map((p) => p / 100) },
    fc.tuple(pence, pence).map(([a, b]) => a / 100 + b / 100),
  ),
  paymentReference: fc.string({ minLength: 1, maxLength: 18 }).filter((s) => /\S/.test(s)),
  currency: fc.constant('GBP'),
  merchantPaymentId: fc.oneof(
    fc.uuid(),
    fc.string({ minLength: 1, maxLength: 40 }).filter((s) => /\S/.test(s)),
  ),
  metadata: fc.oneof(
    { weight: 3, arbitrary: jsonObject },
    fc.constant(null),
    fc.constantFrom(4999, 5000).map(ofLength),
  ),
  agentType,
};

const FIELDS = Object.keys(fields) as (keyof typeof fields)[];

/**
 * Records that are nearly valid: a valid record with up to two fields replaced by any value
 * (valid or not) and perhaps one removed; sometimes without a prototype.
 */
const nearValidArgs = fc
  .tuple(
    fc.record(validFields, { requiredKeys: ['amount', 'paymentReference'] }),
    fc.record(fields),
    fc.subarray(FIELDS, { maxLength: 2 }),
    fc.subarray(FIELDS, { maxLength: 1 }),
    fc.boolean(),
  )
  .map(([valid, other, replaced, removed, nullPrototype]) => {
    const record: Record<string, unknown> = { ...valid };
    for (const key of replaced) record[key] = other[key];
    for (const key of removed) delete record[key];
    return nullPrototype ? Object.assign(Object.create(null) as object, record) : record;
  });

class Order {
  amount = 12.5;
  paymentReference = 'ORDER-1';
}

const anyArgs = fc.oneof(
  { weight: 8, arbitrary: nearValidArgs },
  junk,
  fc.object(),
  fc.constantFrom(
    new Order(),
    Object.create(VALID_PAYMENT) as object,
    [12.5, 'ORDER-1'],
    new Map(Object.entries(VALID_PAYMENT)),
  ),
);

// --- checks ----------------------------------------------------------------------------------

/** The key each refused field is read from. */
const SOURCE: Record<string, string | null> = {
  paymentRequest: null,
  'paymentRequest.amount': 'amount',
  'paymentRequest.reference': 'paymentReference',
  'paymentRequest.currency': 'currency',
  merchantPaymentId: 'merchantPaymentId',
  paymentMetadata: 'metadata',
  agentType: 'agentType',
};

/** The message is the spec format, at one of the allowed fields with one of its reasons. */
function expectRefusal(
  message: string | undefined,
  args: unknown,
  allowed: { field: string; reasons: string[] }[],
): void {
  const parsed = parseSpecError(message ?? '');
  expect(parsed, `not in the spec format: ${message}`).toBeDefined();
  const { field, value, reason } = parsed!;
  const rule = allowed.find((a) => a.field === field);
  expect(
    rule,
    `refused at ${field}; expected ${allowed.map((a) => a.field).join(' or ')}`,
  ).toBeDefined();
  expect(rule!.reasons).toContain(reason);
  const key = SOURCE[field];
  const given = key === null ? args : (args as Record<string, unknown>)[key!];
  // Primitives read as themselves; anything is cut at 120 characters.
  if ((typeof given !== 'object' && typeof given !== 'function') || given === null) {
    expect(value).toBe(shown(String(given)));
  } else {
    expect(value.length).toBeLessThanOrEqual(121);
  }
}

type Accepted = Extract<Verdict, { ok: true }>;

function expectedRequest(v: Accepted, merchantPaymentId: string, optionAgent?: string) {
  return {
    environment: 'SANDBOX',
    applicationId: APP_ID,
    institutionId: BANK,
    paymentRequest: { amount: v.amount, currency: 'GBP', reference: v.reference },
    merchantPaymentId,
    agentType: v.agentType ?? optionAgent ?? 'WEB_BROWSER',
    ...(v.metadataJson === undefined ? {} : { paymentMetadata: JSON.parse(v.metadataJson) }),
  };
}

beforeEach(() => {
  // Merchant callbacks that are not functions, and reused ids, are logged, not thrown.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

// --- createPayment ---------------------------------------------------------------------------

describe('createPayment with any argument', () => {
  test.prop([anyArgs, fc.option(agentType, { nil: undefined })], { numRuns: 300 })(
    'never throws; a refusal is one spec-format error and no request, an acceptance exactly one well-formed request',
    async (args, optionAgent) => {
      const { session, transport, log } = setup(optionAgent ? { agentType: optionAgent } : {});
      await mountReady(session);
      log.clear();
      const nextId = session.getState().merchantPaymentId;
      const verdict = paymentVerdict(args);

      let accepted: unknown;
      expect(() => {
        accepted = session.createPayment(args);
      }).not.toThrow();
      const created = log.errors();
      await session.payWithInstitution(BANK);
      session.openInstitutionSelection();

      if (accepted === false) {
        expect(verdict.ok, 'a valid argument was refused').not.toBe(true);
        expect(created).toHaveLength(1);
        expect(created[0]!.location).toBe('payWithBankInstitution');
        expectRefusal(
          created[0]!.error,
          args,
          verdict.ok === false
            ? verdict.fields
            : (verdict as Extract<Verdict, { ok: 'either' }>).refusal,
        );
        expect(session.getState().prepared).toBeNull();
        expect(transport.paymentCalls).toEqual([]);
        expect(log.openUrl).not.toHaveBeenCalled();
        expect(
          log
            .errors()
            .slice(1)
            .map((e) => e.error),
        ).toEqual([NOT_PREPARED('payWithInstitution'), NOT_PREPARED('openInstitutionSelection')]);
        return;
      }
      expect(accepted).toBe(true);
      expect(verdict.ok, `an invalid argument was accepted`).not.toBe(false);
      const v =
        verdict.ok === true ? verdict : (verdict as Extract<Verdict, { ok: 'either' }>).accepted;
      expect(log.errors()).toEqual([]);
      expect(transport.paymentRequests).toHaveLength(1);
      const sent = transport.paymentRequests[0]!;
      expect(sent).toStrictEqual(expectedRequest(v, v.merchantPaymentId ?? nextId, optionAgent));
      // Rounded to pence: two decimals at most, within half a penny of what was given.
      expect(String(sent.paymentRequest.amount)).toMatch(/^\d+(\.\d{1,2})?$/);
      expect(
        Math.abs(sent.paymentRequest.amount - (args as { amount: number }).amount),
      ).toBeLessThan(0.005);
      // Metadata: exactly its JSON, as plain data (no prototype, accessors or proxies).
      expect(JSON.stringify(sent.paymentMetadata)).toBe(v.metadataJson);
      expect(isPlainJson(sent, types.isProxy)).toBe(true);
      expect(log.openedUrls()).toHaveLength(1);
    },
    30_000,
  );

  test.prop([pence, pence, fc.integer({ min: 2, max: 9 })])(
    'binary noise is accepted and rounded away: a sum or a small multiple of valid amounts is sent as its pence',
    async (a, b, times) => {
      const { session, transport } = setup();
      await mountReady(session);
      for (const [given, exact] of [
        [a / 100 + b / 100, (a + b) / 100],
        [(a / 100) * times, (a * times) / 100],
      ] as const) {
        if (!Number.isSafeInteger(Math.round(exact * 100))) continue;
        expect(session.createPayment({ amount: given, paymentReference: 'R' })).toBe(true);
        await session.payWithInstitution(BANK);
        expect(transport.paymentRequests.at(-1)!.paymentRequest.amount).toBe(exact);
      }
    },
    30_000,
  );
});

// --- options ----------------------------------------------------------------------------------

/** A fetch that answers the HTTP contract, so that the default transport never reaches a network. */
function stubFetch() {
  const fetch = vi.fn(async (url: string | URL | Request, _init?: RequestInit) => {
    const body = String(url).includes('/v1/institutions')
      ? { institutions: DEFAULT_INSTITUTIONS }
      : { paymentId: 'p-1', authorisationUrl: 'https://bank.test/authorise/p-1' };
    return new Response(JSON.stringify(body), {
      status: String(url).includes('/v1/payments') ? 201 : 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const often = <T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 9, arbitrary: valid }, { weight: 1, arbitrary: invalid });

const FUNCTION = Symbol('a function of the test');

const nearValidOptions = fc.record(
  {
    environment: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom('SANDBOX', 'LIVE') },
      fc.constantFrom('sandbox', 'PROD', ''),
      junk,
    ),
    applicationId: fc.oneof(
      { weight: 8, arbitrary: fc.uuid() },
      fc.constantFrom('', 'nope', `${APP_ID} `, `{${APP_ID}}`),
      junk,
    ),
    agentType: often(agentType, fc.oneof(fc.constantFrom('TABLET', ''), junk)),
    disablePayButton: often(fc.boolean(), junk),
    isWebView: often(fc.boolean(), junk),
    disableVolumeStyling: often(fc.boolean(), junk),
    disableTailwindStyling: often(fc.boolean(), junk),
    title: often(fc.string(), junk),
    label: often(fc.string(), junk),
    payLabel: often(fc.string(), junk),
    eventConsumer: often(fc.constant(FUNCTION), junk),
    errorConsumer: often(fc.constant(FUNCTION), junk),
    openUrl: often(fc.constant(FUNCTION), junk),
    generateMerchantPaymentId: often(fc.constant(FUNCTION), junk),
    onPaymentInitiated: often(fc.constant(FUNCTION), junk),
    baseUrl: often(
      fc.constantFrom('http://backend.test', 'https://backend.test/api/'),
      fc.oneof(
        fc.constantFrom('javascript:alert(1)', '//backend.test', '/api', 'backend.test', ''),
        junk,
      ),
    ),
    transport: often(
      fc.constant(FUNCTION),
      fc.oneof(fc.constantFrom({}, { fetchInstitutions: 1, initiatePayment: 2 }, null), junk),
    ),
  },
  { requiredKeys: ['environment', 'applicationId'] },
);

/** The generated options with real functions (and the fake transport) in place of the marker. */
function withFunctions(generated: Record<string, unknown>, log: EventLog) {
  const transport = createFakeTransport();
  let n = 0;
  const functions: Record<string, unknown> = {
    eventConsumer: log.eventConsumer,
    errorConsumer: log.errorConsumer,
    openUrl: log.openUrl,
    generateMerchantPaymentId: () => `order-${++n}`,
    onPaymentInitiated: vi.fn(),
    transport,
  };
  const options = Object.fromEntries(
    Object.entries(generated).map(([key, value]) => [
      key,
      value === FUNCTION ? functions[key] : value,
    ]),
  );
  return { options, transport };
}

describe('options', () => {
  // The counterexamples found so far are always tried first.
  test.prop([junk], { numRuns: 200, examples: [[null]] })(
    'any value as options: creating, mounting and every method never throw; the refusal is in the spec format and nothing is fetched',
    async (options) => {
      const fetch = stubFetch();
      let session: PaymentSession | undefined;
      expect(() => {
        session = createPaymentSession(options as SessionOptions);
      }).not.toThrow();
      const refusal = optionsRefusal(options);
      fc.pre(refusal !== undefined);
      const error = session!.getState().error;
      expect(error?.location).toBe('fetchInstitutions');
      expect(parseSpecError(error?.error ?? '')).toMatchObject({
        field: refusal!.field,
        reason: refusal!.reason,
      });
      let unmount = () => {};
      expect(() => {
        unmount = session!.mount();
        session!.createPayment(VALID_PAYMENT);
        session!.toggleButton(false);
        session!.openInstitutionSelection();
        session!.closeInstitutionSelection();
        session!.retry();
        session!.setOptions(options as SessionOptions);
      }).not.toThrow();
      await expect(session!.payWithInstitution(BANK)).resolves.toBeUndefined();
      expect(fetch).not.toHaveBeenCalled();
      expect(unmount).not.toThrow();
    },
    30_000,
  );

  test.prop([nearValidOptions], {
    numRuns: 300,
    examples: [
      [
        {
          environment: {},
          applicationId: '00000000-0000-1000-8000-000000000000',
          transport: FUNCTION,
        },
      ],
    ],
  })(
    'near-valid options: an invalid one is refused in the spec format and sends no request at all; a valid one fetches once and pays once as configured',
    async (generated) => {
      const fetch = stubFetch();
      const log = createEventLog();
      const { options, transport } = withFunctions(generated, log);
      const refusal = optionsRefusal(options);

      let session: PaymentSession | undefined;
      expect(() => {
        session = createPaymentSession(options as unknown as SessionOptions);
      }).not.toThrow();
      const s = session!;
      if (refusal) {
        expect(s.getState().error?.location).toBe('fetchInstitutions');
        expect(parseSpecError(s.getState().error?.error ?? '')).toMatchObject({
          field: refusal.field,
          reason: refusal.reason,
        });
      } else {
        expect(s.getState().error).toBeNull();
      }
      const unmount = s.mount();
      await until(s, (state) => state.institutionsState !== 'loading');
      expect(s.createPayment(VALID_PAYMENT)).toBe(true);
      await s.payWithInstitution(BANK);
      unmount();

      const usesFake = options.transport === transport;
      const institutionRequests = [
        ...(usesFake ? transport.fetchCalls.map((c) => c.request) : []),
        ...fetch.mock.calls.filter(([url]) => String(url).includes('/v1/institutions')),
      ];
      const paymentRequests = [
        ...(usesFake ? transport.paymentRequests : []),
        ...fetch.mock.calls
          .filter(([url]) => String(url).includes('/v1/payments'))
          .map(([, init]) => JSON.parse(String(init?.body))),
      ];
      const opened = log.openUrl.mock.calls.map(([url]) => url);

      if (refusal) {
        expect(institutionRequests, `institutions fetched with ${refusal.field} refused`).toEqual(
          [],
        );
        expect(paymentRequests, `a payment sent with ${refusal.field} refused`).toEqual([]);
        expect(opened).toEqual([]);
        return;
      }
      if (options.environment === 'LIVE' && !usesFake && options.baseUrl === undefined) {
        expect(s.getState().error?.error).toBe(
          'servicepay: no backend address for LIVE: pass the baseUrl of your backend or a transport',
        );
        expect(institutionRequests).toEqual([]);
        expect(paymentRequests).toEqual([]);
        return;
      }
      expect(institutionRequests).toHaveLength(1);
      expect(paymentRequests).toHaveLength(1);
      expect(paymentRequests[0]).toMatchObject({
        environment: options.environment,
        applicationId: options.applicationId,
        institutionId: BANK,
        paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
        agentType: options.agentType ?? 'WEB_BROWSER',
      });
      if (options.openUrl === log.openUrl) {
        expect(opened).toHaveLength(1);
        expect(opened[0]!.endsWith('#OPEN_AS_APPLINK')).toBe(options.isWebView === true);
      }
    },
    30_000,
  );
});

// --- wrong calls --------------------------------------------------------------------------------

describe('wrong calls', () => {
  test.prop([fc.oneof(fc.boolean(), junk)], { numRuns: 200, examples: [[[Object.create(null)]]] })(
    'toggleButton(any value) never throws: a boolean toggles, anything else is reported and changes nothing',
    async (value) => {
      const { session, log } = setup();
      await mountReady(session);
      log.clear();
      expect(() => session.toggleButton(value)).not.toThrow();
      if (typeof value === 'boolean') {
        expect(log.entries).toEqual([`event:pay_button_${value ? 'enabled' : 'disabled'}`]);
        expect(session.getState().payButtonEnabled).toBe(value);
      } else {
        expect(log.events()).toEqual([]);
        expect(log.errors()).toHaveLength(1);
        expect(log.errors()[0]!.location).toBe('payWithBankInstitution');
        expect(log.errors()[0]!.error).toMatch(
          /^servicepay: toggleButton expects true or false, got /,
        );
        expect(session.getState().payButtonEnabled).toBe(true);
      }
    },
    30_000,
  );

  test.prop([fc.oneof(fc.constantFrom(...BANK_IDS), fc.string(), junk)], {
    numRuns: 200,
    examples: [[Object.create(null)]],
  })(
    'payWithInstitution(any value) never throws or rejects: a known bank pays once, anything else is reported and sends nothing',
    async (id) => {
      const { session, transport, log } = setup();
      await mountReady(session);
      session.createPayment(VALID_PAYMENT);
      log.clear();
      let result: Promise<void> | undefined;
      expect(() => {
        result = session.payWithInstitution(id);
      }).not.toThrow();
      await expect(result).resolves.toBeUndefined();
      if (typeof id === 'string' && BANK_IDS.includes(id)) {
        expect(log.errors()).toEqual([]);
        expect(transport.paymentRequests.map((r) => r.institutionId)).toEqual([id]);
        return;
      }
      expect(transport.paymentCalls).toEqual([]);
      expect(log.errors()).toHaveLength(1);
      expect(log.errors()[0]!.error).toEqual(
        typeof id === 'string' && id !== ''
          ? `servicepay: unknown institution "${id}"`
          : expect.stringMatching(
              /^servicepay: payWithInstitution expects an institution id, got /,
            ),
      );
    },
    30_000,
  );
});

// --- sequences ----------------------------------------------------------------------------------

type Op =
  | { op: 'createPayment'; args: unknown }
  | { op: 'toggleButton'; value: unknown }
  | { op: 'payWithInstitution'; id: unknown }
  | { op: 'openInstitutionSelection' }
  | { op: 'closeInstitutionSelection' };

const sequenceArgs = fc.oneof(
  { weight: 3, arbitrary: nearValidArgs },
  // A few ids, so that a given id is sometimes one a payment already used.
  fc.record(
    {
      amount: pence.map((p) => p / 100),
      paymentReference: fc.constantFrom('R-1', 'R-2'),
      merchantPaymentId: fc.constantFrom('order-a', 'order-b'),
    },
    { requiredKeys: ['amount', 'paymentReference'] },
  ),
);

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: sequenceArgs.map((args) => ({ op: 'createPayment' as const, args })) },
  fc.oneof(fc.boolean(), primitiveJunk).map((value) => ({ op: 'toggleButton' as const, value })),
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        { weight: 4, arbitrary: fc.constantFrom(...BANK_IDS) },
        fc.constantFrom('', 'ob-unknown'),
        primitiveJunk,
      )
      .map((id) => ({ op: 'payWithInstitution' as const, id })),
  },
  fc.constant({ op: 'openInstitutionSelection' as const }),
  fc.constant({ op: 'closeInstitutionSelection' as const }),
);

describe('sequences of calls', () => {
  test.prop(
    [fc.array(op, { minLength: 1, maxLength: 25 }), fc.option(agentType, { nil: undefined })],
    {
      numRuns: 200,
    },
  )(
    'each payment is the last valid createPayment, sent once, under an id never used before',
    async (ops, optionAgent) => {
      const { session, transport, log } = setup(optionAgent ? { agentType: optionAgent } : {});
      await mountReady(session);
      log.clear();
      let prepared: Accepted | null = null;
      let givenId: string | null = null;
      const sentIds = new Set<string>();

      for (const step of ops) {
        const errorsBefore = log.errors().length;
        const callsBefore = transport.paymentCalls.length;
        const newErrors = () =>
          log
            .errors()
            .slice(errorsBefore)
            .map((e) => e.error);
        switch (step.op) {
          case 'createPayment': {
            const verdict = paymentVerdict(step.args);
            const ok = session.createPayment(step.args);
            if (verdict.ok !== 'either') expect(ok).toBe(verdict.ok);
            if (ok) {
              prepared =
                verdict.ok === true
                  ? verdict
                  : (verdict as Extract<Verdict, { ok: 'either' }>).accepted;
              const given = prepared.merchantPaymentId;
              givenId = given !== undefined && !sentIds.has(given) ? given : null;
              expect(newErrors()).toEqual([]);
            } else {
              prepared = null;
              expect(newErrors()).toHaveLength(1);
              expect(parseSpecError(newErrors()[0]!)).toBeDefined();
            }
            break;
          }
          case 'toggleButton':
            session.toggleButton(step.value);
            expect(newErrors()).toEqual(
              typeof step.value === 'boolean'
                ? []
                : [
                    `servicepay: toggleButton expects true or false, got ${describeValue(step.value)}`,
                  ],
            );
            break;
          case 'payWithInstitution': {
            const { id } = step;
            const nextId = session.getState().merchantPaymentId;
            await session.payWithInstitution(id);
            if (typeof id !== 'string' || id === '') {
              expect(newErrors()).toEqual([
                `servicepay: payWithInstitution expects an institution id, got ${describeValue(id)}`,
              ]);
            } else if (!prepared) {
              expect(newErrors()).toEqual([NOT_PREPARED('payWithInstitution')]);
            } else if (!BANK_IDS.includes(id)) {
              expect(newErrors()).toEqual([`servicepay: unknown institution "${id}"`]);
            } else {
              expect(newErrors()).toEqual([]);
              expect(transport.paymentCalls.length - callsBefore).toBe(1);
              const expectedId = givenId ?? nextId;
              expect(sentIds.has(expectedId), 'an id was used twice').toBe(false);
              expect(transport.paymentRequests.at(-1)).toStrictEqual({
                ...expectedRequest(prepared, expectedId, optionAgent),
                institutionId: id,
              });
              sentIds.add(expectedId);
              givenId = null;
              expect(session.getState()).toMatchObject({
                paymentState: 'awaiting-authorisation',
                listState: 'closed',
              });
            }
            break;
          }
          case 'openInstitutionSelection':
            session.openInstitutionSelection();
            expect(newErrors()).toEqual(prepared ? [] : [NOT_PREPARED('openInstitutionSelection')]);
            if (prepared) expect(session.getState().listState).toBe('open');
            break;
          case 'closeInstitutionSelection':
            session.closeInstitutionSelection();
            expect(newErrors()).toEqual([]);
            expect(session.getState().listState).toBe('closed');
            break;
        }
        if (step.op !== 'payWithInstitution')
          expect(transport.paymentCalls.length).toBe(callsBefore);
      }
      // Spec 4.4 rule 4: one id per payment, never reused; each payment opened its own URL.
      const ids = transport.paymentRequests.map((r) => r.merchantPaymentId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(log.openedUrls()).toHaveLength(ids.length);
      expect(log.events().filter((e) => e === 'payment_initiated')).toHaveLength(ids.length);
    },
    30_000,
  );
});

// --- the counterexamples the properties found, kept as fixed cases ------------------------------

describe('regressions found by the properties', () => {
  // Bug: session.ts createPaymentSession reads `options.disablePayButton` before
  // looking at the result of validateOptions, so `null` (or undefined) options throw a
  // TypeError instead of being reported as `field=[options] … error=[must be an object]`.
  test.each([null, undefined])(
    'createPaymentSession(%s) reports instead of throwing',
    (options) => {
      let session: PaymentSession | undefined;
      expect(() => {
        session = createPaymentSession(options as unknown as SessionOptions);
      }).not.toThrow();
      expect(session!.getState().error).toEqual({
        location: 'fetchInstitutions',
        error: `Input validation error: field=[options], value=[${options}], error=[must be an object]`,
      });
    },
  );

  // Bug: session.ts validates the options only before fetching the institutions (and in
  // setOptions); payWithInstitution/startPayment never check them, so a session whose options
  // were refused still sends payments: with `environment: 'PROD'`, an unknown agentType, a
  // non-UUID applicationId or any other refused option, exactly as given.
  test.each([
    ['environment {} (the counterexample)', { environment: {} }],
    [
      'generateMerchantPaymentId new String("") (the counterexample)',
      { generateMerchantPaymentId: Object('') },
    ],
    ['environment PROD', { environment: 'PROD' }],
    ['applicationId not a UUID', { applicationId: 'nope' }],
    ['agentType TABLET', { agentType: 'TABLET' }],
  ])('refused options send no payment: %s', async (_name, refused) => {
    const transport = createFakeTransport();
    const log = createEventLog();
    const session = createPaymentSession({
      environment: 'SANDBOX',
      applicationId: '00000000-0000-1000-8000-000000000000',
      transport,
      errorConsumer: log.errorConsumer,
      openUrl: log.openUrl,
      ...refused,
    } as unknown as SessionOptions);
    session.mount();
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    expect(transport.calls).toEqual([]);
    expect(log.openUrl).not.toHaveBeenCalled();
    expect(parseSpecError(log.errors()[0]?.error ?? '')).toBeDefined();
  });

  // Bug: session.ts toggleButton builds its message with `String(enabled)`, which
  // throws a TypeError for an object without a prototype (or an array holding one).
  test.each([
    ['an object without a prototype', Object.create(null)],
    ['[{__proto__:null}] (the counterexample)', [Object.create(null)]],
  ])('toggleButton(%s) reports instead of throwing', (_name, value) => {
    const { session, log } = setup();
    expect(() => session.toggleButton(value)).not.toThrow();
    expect(log.errors()[0]?.error).toMatch(/^servicepay: toggleButton expects true or false, got /);
  });

  // Bug: session.ts payWithInstitution builds its message with `String(institutionId)`:
  // for an object without a prototype the promise rejects with a TypeError, where
  // the README promises it never rejects (and <ServicePay>'s tiles call it with `void`).
  test('payWithInstitution({__proto__:null}) (the counterexample) resolves and reports', async () => {
    const { session, transport, log } = setup();
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    await expect(session.payWithInstitution(Object.create(null))).resolves.toBeUndefined();
    expect(transport.paymentCalls).toEqual([]);
    expect(log.errors()[0]?.error).toMatch(
      /^servicepay: payWithInstitution expects an institution id, got /,
    );
  });
});
