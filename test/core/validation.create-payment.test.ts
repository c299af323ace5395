import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BANK, NOT_PREPARED, VALID_PAYMENT, mountReady, setup } from './support/harness';

// createPayment (spec 2.3) is validated before anything can be sent. Each refusal is
// reported at payWithBankInstitution in the spec 2.4 format, and paying afterwards sends
// nothing to the backend.

const ID_RULE = 'must be a non-blank string of at most 200 characters without control characters';

const SPEC_FORMAT =
  /^Input validation error: field=\[[^\]]+\], value=\[[\s\S]*\], error=\[[^\]]+\]$/;

function cyclic(): Record<string, unknown> {
  const node: Record<string, unknown> = { orderId: 1042 };
  node.self = node;
  return node;
}

/** A metadata object whose JSON is exactly `length` characters long. */
function metadataOfLength(length: number): Record<string, unknown> {
  const meta = { note: 'x'.repeat(length - '{"note":""}'.length) };
  expect(JSON.stringify(meta)).toHaveLength(length);
  return meta;
}

const oversized = metadataOfLength(5001);

const refusals: [string, Record<string, unknown> | undefined, string][] = [
  [
    'no argument at all',
    undefined,
    'Input validation error: field=[paymentRequest], value=[undefined], error=[must be an object]',
  ],
  [
    'a missing amount',
    { paymentReference: 'ORDER-1042' },
    'Input validation error: field=[paymentRequest.amount], value=[undefined], error=[must not be null]',
  ],
  [
    'a null amount',
    { amount: null, paymentReference: 'ORDER-1042' },
    'Input validation error: field=[paymentRequest.amount], value=[null], error=[must not be null]',
  ],
  [
    'an amount of 0',
    { amount: 0, paymentReference: 'ORDER-1042' },
    'Input validation error: field=[paymentRequest.amount], value=[0], error=[must be greater than 0]',
  ],
  [
    'a negative amount',
    { amount: -12.5, paymentReference: 'ORDER-1042' },
    'Input validation error: field=[paymentRequest.amount], value=[-12.5], error=[must be greater than 0]',
  ],
  [
    'an amount given as a string',
    { amount: '12.50', paymentReference: 'ORDER-1042' },
    'Input validation error: field=[paymentRequest.amount], value=[12.50], error=[must be a number]',
  ],
  [
    'an amount with three decimals (1.005)',
    { amount: 1.005, paymentReference: 'ORDER-1042' },
    'Input validation error: field=[paymentRequest.amount], value=[1.005], error=[must have at most 2 decimal places]',
  ],
  [
    'an amount with three decimals (12.345)',
    { amount: 12.345, paymentReference: 'ORDER-1042' },
    'Input validation error: field=[paymentRequest.amount], value=[12.345], error=[must have at most 2 decimal places]',
  ],
  [
    'a missing paymentReference',
    { amount: 12.5 },
    'Input validation error: field=[paymentRequest.reference], value=[undefined], error=[must not be null]',
  ],
  [
    'an empty paymentReference',
    { amount: 12.5, paymentReference: '' },
    'Input validation error: field=[paymentRequest.reference], value=[], error=[must not be blank]',
  ],
  [
    'a numeric paymentReference',
    { amount: 12.5, paymentReference: 1042 },
    'Input validation error: field=[paymentRequest.reference], value=[1042], error=[must be a string]',
  ],
  [
    'a paymentReference of 19 characters',
    { amount: 12.5, paymentReference: 'ABCDEFGHIJKLMNOPQRS' },
    'Input validation error: field=[paymentRequest.reference], value=[ABCDEFGHIJKLMNOPQRS], error=[must not be longer than 18 characters]',
  ],
  [
    'an empty merchantPaymentId',
    { ...VALID_PAYMENT, merchantPaymentId: '' },
    `Input validation error: field=[merchantPaymentId], value=[], error=[${ID_RULE}]`,
  ],
  [
    'a numeric merchantPaymentId',
    { ...VALID_PAYMENT, merchantPaymentId: 1042 },
    `Input validation error: field=[merchantPaymentId], value=[1042], error=[${ID_RULE}]`,
  ],
  // The one id rule (the status endpoint and the result page apply it too): refused here
  // rather than paid and then never found.
  [
    'a blank merchantPaymentId',
    { ...VALID_PAYMENT, merchantPaymentId: '   ' },
    `Input validation error: field=[merchantPaymentId], value=[   ], error=[${ID_RULE}]`,
  ],
  [
    'a merchantPaymentId with a control character',
    { ...VALID_PAYMENT, merchantPaymentId: 'order\n1042' },
    `Input validation error: field=[merchantPaymentId], value=[order\n1042], error=[${ID_RULE}]`,
  ],
  [
    'a merchantPaymentId of 201 characters',
    { ...VALID_PAYMENT, merchantPaymentId: 'x'.repeat(201) },
    `Input validation error: field=[merchantPaymentId], value=[${'x'.repeat(120)}…], error=[${ID_RULE}]`,
  ],
  [
    'metadata that is a number',
    { ...VALID_PAYMENT, metadata: 42 },
    'Input validation error: field=[paymentMetadata], value=[42], error=[must be a JSON object (not a number, string or array)]',
  ],
  [
    'metadata that is a string',
    { ...VALID_PAYMENT, metadata: '{"orderId":1042}' },
    'Input validation error: field=[paymentMetadata], value=[{"orderId":1042}], error=[must be a JSON object (not a number, string or array)]',
  ],
  [
    'metadata that is an array',
    { ...VALID_PAYMENT, metadata: ['order', 1042] },
    'Input validation error: field=[paymentMetadata], value=[["order",1042]], error=[must be a JSON object (not a number, string or array)]',
  ],
  [
    'cyclic metadata',
    { ...VALID_PAYMENT, metadata: cyclic() },
    'Input validation error: field=[paymentMetadata], value=[[object Object]], error=[must be serialisable to JSON]',
  ],
  [
    'metadata of 5001 characters serialised',
    { ...VALID_PAYMENT, metadata: oversized },
    `Input validation error: field=[paymentMetadata], value=[${JSON.stringify(oversized).slice(0, 120)}…], error=[must not be longer than 5000 characters after serialisation]`,
  ],
  [
    'an unknown agentType',
    { ...VALID_PAYMENT, agentType: 'TABLET' },
    'Input validation error: field=[agentType], value=[TABLET], error=[must be one of WEB_BROWSER, MOBILE_APPLICATION]',
  ],
  [
    'a currency other than GBP',
    { ...VALID_PAYMENT, currency: 'EUR' },
    'Input validation error: field=[paymentRequest.currency], value=[EUR], error=[must be GBP (the only currency)]',
  ],
];

describe('createPayment validation (spec 2.3, 2.4, 8)', () => {
  it.each(refusals)(
    'refuses %s with the exact error and sends nothing',
    async (_name, args, expected) => {
      const { session, transport, log } = setup();
      await mountReady(session);
      log.clear();

      expect(session.createPayment(args)).toBe(false);
      expect(log.entries).toEqual([`error:payWithBankInstitution:${expected}`]);
      expect(session.getState().prepared).toBeNull();

      session.openInstitutionSelection();
      await session.payWithInstitution(BANK);
      expect(transport.paymentCalls).toEqual([]);
      expect(log.entries.slice(1)).toEqual([
        `error:payWithBankInstitution:${NOT_PREPARED('openInstitutionSelection')}`,
        `error:payWithBankInstitution:${NOT_PREPARED('payWithInstitution')}`,
      ]);
    },
  );

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'refuses the amount %s as not finite and sends nothing',
    async (amount) => {
      const { session, transport, log } = setup();
      await mountReady(session);
      log.clear();

      expect(session.createPayment({ amount, paymentReference: 'ORDER-1042' })).toBe(false);
      expect(log.errors()).toHaveLength(1);
      expect(log.errors()[0]?.location).toBe('payWithBankInstitution');
      expect(log.errors()[0]?.error).toMatch(
        /^Input validation error: field=\[paymentRequest\.amount\], value=\[.*\], error=\[must be a finite number\]$/,
      );
      await session.payWithInstitution(BANK);
      expect(transport.paymentCalls).toEqual([]);
    },
  );

  // Regression (fixed): errors.ts describeValue() formats numbers with JSON.stringify, which turns NaN and
  // ±Infinity into "null": the merchant is told it passed null.
  it.each([
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [Number.NEGATIVE_INFINITY, '-Infinity'],
  ])('shows the amount %s as itself in the error value', (amount, shown) => {
    const { session, log } = setup();
    session.createPayment({ amount, paymentReference: 'ORDER-1042' });
    expect(log.errors()).toEqual([
      {
        location: 'payWithBankInstitution',
        error: `Input validation error: field=[paymentRequest.amount], value=[${shown}], error=[must be a finite number]`,
      },
    ]);
  });

  // Regression (fixed): validation.ts validateAmount() tolerates up to 1e-6 pence of "noise" before
  // rounding, so a positive amount below that passes the `> 0` check and is then rounded to
  // 0: the backend is asked for a payment of £0.
  it('refuses a tiny positive amount instead of sending a payment of 0', async () => {
    const { session, transport, log } = setup();
    await mountReady(session);
    log.clear();

    const accepted = session.createPayment({ amount: 1e-9, paymentReference: 'ORDER-1042' });
    await session.payWithInstitution(BANK);

    expect(transport.paymentRequests.map((r) => r.paymentRequest.amount)).toEqual([]);
    expect(accepted).toBe(false);
    expect(log.errors()[0]?.error).toMatch(
      /^Input validation error: field=\[paymentRequest\.amount\]/,
    );
  });

  // Regression (fixed): validation.ts validateAmount() compares `value * 100` with its rounding against an
  // absolute 1e-6; above about £134 million the binary error of a valid 2-decimal amount is
  // larger than that and the amount is refused as "must have at most 2 decimal places".
  it('accepts any amount with two decimals, however large', async () => {
    const { session, transport, log } = setup();
    await mountReady(session);
    log.clear();

    expect(session.createPayment({ amount: 134217895.61, paymentReference: 'ORDER-1042' })).toBe(
      true,
    );
    await session.payWithInstitution(BANK);
    expect(log.errors()).toEqual([]);
    expect(transport.paymentRequests[0]?.paymentRequest.amount).toBe(134217895.61);
  });

  // Regression (fixed): validation.ts validateMetadata() checks the object, then sends JSON.parse of its
  // JSON: a plain object with its own toJSON passes the "JSON object" check yet is sent as an
  // array, and one whose toJSON returns undefined makes createPayment throw a TypeError
  // (`json.length` of undefined) instead of reporting an error.
  it('never sends metadata that serialises to an array', async () => {
    const { session, transport } = setup();
    await mountReady(session);

    session.createPayment({ ...VALID_PAYMENT, metadata: { toJSON: () => ['order', 1042] } });
    await session.payWithInstitution(BANK);

    const sent = transport.paymentRequests.map((r) => r.paymentMetadata);
    expect(sent.some((m) => Array.isArray(m))).toBe(false);
  });

  it('reports metadata that serialises to nothing instead of throwing', () => {
    const { session, log } = setup();
    let accepted: boolean | undefined;
    expect(() => {
      accepted = session.createPayment({ ...VALID_PAYMENT, metadata: { toJSON: () => undefined } });
    }).not.toThrow();
    expect(accepted).toBe(false);
    expect(log.errors()[0]?.error).toMatch(/^Input validation error: field=\[paymentMetadata\]/);
  });
});

describe('createPayment accepts and sends', () => {
  async function sentFor(args: Record<string, unknown>) {
    const { session, transport, log } = setup();
    await mountReady(session);
    expect(session.createPayment(args)).toBe(true);
    await session.payWithInstitution(BANK);
    expect(log.errors()).toEqual([]);
    expect(transport.paymentRequests).toHaveLength(1);
    return transport.paymentRequests[0]!;
  }

  it('0.1 + 0.2 as 0.3', async () => {
    expect((await sentFor({ amount: 0.1 + 0.2, paymentReference: 'R' })).paymentRequest).toEqual({
      amount: 0.3,
      currency: 'GBP',
      reference: 'R',
    });
  });

  it('12.5 as 12.5, and 1.1 * 3 as 3.3', async () => {
    expect((await sentFor({ amount: 12.5, paymentReference: 'R' })).paymentRequest.amount).toBe(
      12.5,
    );
    expect((await sentFor({ amount: 1.1 * 3, paymentReference: 'R' })).paymentRequest.amount).toBe(
      3.3,
    );
  });

  it('a paymentReference of exactly 18 characters, unchanged', async () => {
    const request = await sentFor({ amount: 5, paymentReference: 'ABCDEFGHIJKLMNOPQR' });
    expect(request.paymentRequest.reference).toBe('ABCDEFGHIJKLMNOPQR');
  });

  it('metadata of exactly 5000 characters serialised', async () => {
    const metadata = metadataOfLength(5000);
    expect((await sentFor({ ...VALID_PAYMENT, metadata })).paymentMetadata).toEqual(metadata);
  });

  it('nested metadata, as its JSON round trip', async () => {
    const metadata = {
      order: { id: 1042, lines: [{ sku: 'TEA-01', qty: 2 }], gift: false },
      customer: { tier: 'gold', note: null },
    };
    expect((await sentFor({ ...VALID_PAYMENT, metadata })).paymentMetadata).toEqual(metadata);
  });

  it('no paymentMetadata key when no metadata was given', async () => {
    expect(await sentFor({ ...VALID_PAYMENT })).not.toHaveProperty('paymentMetadata');
  });

  it('currency GBP, always', async () => {
    const request = await sentFor({ ...VALID_PAYMENT, currency: 'GBP' });
    expect(request.paymentRequest.currency).toBe('GBP');
  });
});

describe('paying without a prepared payment', () => {
  it('openInstitutionSelection reports a clear error and opens nothing', async () => {
    const { session, transport, log } = setup();
    await mountReady(session);
    log.clear();

    session.openInstitutionSelection();

    expect(log.entries).toEqual([
      `error:payWithBankInstitution:${NOT_PREPARED('openInstitutionSelection')}`,
    ]);
    expect(session.getState().listState).toBe('closed');
    expect(transport.paymentCalls).toEqual([]);
  });

  it('payWithInstitution reports a clear error and sends nothing', async () => {
    const { session, transport, log } = setup();
    await mountReady(session);
    log.clear();

    await session.payWithInstitution(BANK);

    expect(log.entries).toEqual([
      `error:payWithBankInstitution:${NOT_PREPARED('payWithInstitution')}`,
    ]);
    expect(transport.paymentCalls).toEqual([]);
  });

  it('an invalid createPayment after a valid one clears the prepared payment', async () => {
    const { session, transport, log } = setup();
    await mountReady(session);
    expect(session.createPayment(VALID_PAYMENT)).toBe(true);
    expect(session.getState().prepared).not.toBeNull();
    log.clear();

    expect(session.createPayment({ ...VALID_PAYMENT, amount: -1 })).toBe(false);
    await session.payWithInstitution(BANK);

    expect(session.getState().prepared).toBeNull();
    expect(transport.paymentCalls).toEqual([]);
    expect(log.entries).toEqual([
      'error:payWithBankInstitution:Input validation error: field=[paymentRequest.amount], value=[-1], error=[must be greater than 0]',
      `error:payWithBankInstitution:${NOT_PREPARED('payWithInstitution')}`,
    ]);
  });
});

// --- properties ---------------------------------------------------------------------------

const reference = fc.string({ minLength: 1, maxLength: 18 }).filter((s) => s.trim() !== '');
const pence = fc.integer({ min: 1, max: 10_000_000_000 }); // up to £100 million
const agentType = fc.constantFrom('WEB_BROWSER' as const, 'MOBILE_APPLICATION' as const);
const metadata = fc
  .dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })
  .filter((m) => JSON.stringify(m).length <= 5000);

const validArgs = fc.record(
  {
    pence,
    paymentReference: reference,
    merchantPaymentId: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ''),
    metadata,
    agentType,
  },
  { requiredKeys: ['pence', 'paymentReference'] },
);

/** One field made invalid, the rest valid. */
const invalidArgs = fc.oneof(
  fc
    .oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -0),
      fc.double({ max: 0, noNaN: true }),
      fc.string(),
      fc.boolean(),
      // three or more decimals: k / 1000 with k not a multiple of 10
      fc
        .integer({ min: 1, max: 1_000_000_000 })
        .filter((k) => k % 10 !== 0)
        .map((k) => k / 1000),
    )
    .map((amount) => ({ ...VALID_PAYMENT, amount })),
  fc
    .oneof(
      fc.constant(undefined),
      fc.constant(''),
      fc.string({ minLength: 19, maxLength: 60 }),
      fc.integer(),
      fc.array(fc.string()),
    )
    .map((paymentReference) => ({ ...VALID_PAYMENT, paymentReference })),
  fc
    .oneof(fc.constant(''), fc.integer(), fc.boolean(), fc.object())
    .map((merchantPaymentId) => ({ ...VALID_PAYMENT, merchantPaymentId })),
  fc
    .oneof(
      fc.integer(),
      fc.string(),
      fc.array(fc.jsonValue()),
      fc.string({ minLength: 5000, maxLength: 5100 }).map((note) => ({ note })),
    )
    .map((meta) => ({ ...VALID_PAYMENT, metadata: meta })),
  fc
    .string()
    .filter((s) => s !== 'WEB_BROWSER' && s !== 'MOBILE_APPLICATION')
    .map((agent) => ({ ...VALID_PAYMENT, agentType: agent })),
  fc
    .string()
    .filter((s) => s !== 'GBP')
    .map((currency) => ({ ...VALID_PAYMENT, currency })),
);

describe('createPayment properties', () => {
  it('valid arguments always produce exactly one well-formed initiatePayment request', async () => {
    await fc.assert(
      fc.asyncProperty(validArgs, agentType, async (a, optionAgent) => {
        const { session, transport, log, options } = setup({ agentType: optionAgent });
        await mountReady(session);
        const { pence: p, ...rest } = a;
        const args = { ...rest, amount: p / 100 };

        expect(session.createPayment(args)).toBe(true);
        const expectedId = a.merchantPaymentId ?? session.getState().merchantPaymentId;
        await session.payWithInstitution(BANK);

        expect(log.errors()).toEqual([]);
        expect(transport.paymentRequests).toEqual([
          {
            environment: 'SANDBOX',
            applicationId: options.applicationId,
            institutionId: BANK,
            paymentRequest: {
              amount: a.pence / 100,
              currency: 'GBP',
              reference: a.paymentReference,
            },
            merchantPaymentId: expectedId,
            agentType: a.agentType ?? optionAgent,
            ...(a.metadata ? { paymentMetadata: JSON.parse(JSON.stringify(a.metadata)) } : {}),
          },
        ]);
      }),
    );
  });

  it('invalid arguments never send anything and always report a spec-format error', async () => {
    await fc.assert(
      fc.asyncProperty(invalidArgs, async (args) => {
        const { session, transport, log } = setup();
        await mountReady(session);
        log.clear();

        expect(session.createPayment(args)).toBe(false);
        await session.payWithInstitution(BANK);
        session.openInstitutionSelection();

        expect(transport.paymentCalls).toEqual([]);
        const [first, ...rest] = log.errors();
        expect(first?.location).toBe('payWithBankInstitution');
        expect(first?.error).toMatch(SPEC_FORMAT);
        expect(rest.map((e) => e.error)).toEqual([
          NOT_PREPARED('payWithInstitution'),
          NOT_PREPARED('openInstitutionSelection'),
        ]);
        expect(log.events()).not.toContain('bank_selection_opened');
      }),
    );
  });
});
