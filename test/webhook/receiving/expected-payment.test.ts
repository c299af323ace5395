// @vitest-environment node
// expectedPayment's answer as a database gives it (issue 46, findings 4 and 5): a NUMERIC
// column's decimal string is parsed exactly into pence and a nullable currency is GBP, so a
// genuine payment reconciles; anything else is refused with a message that names the field and
// what is wrong with it, and the keys given, never a value (the answer is an order row: a
// customer's e-mail and address beside the total).
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  createFetchPaymentStatusHandler,
  MemoryIdempotencyStore,
} from '../../../src/webhook/index';
import type { WebhookNotification, WebhookReceiverOptions } from '../../../src/webhook/index';
import { decimalPence, expectationOf } from '../../../src/webhook/receiving/expected-payment';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { recorder, statusOf } from '../support/receivers';

const keys = serviceKeys();
const PLANTED = 'planted.customer@example.com';

/** A receiver whose expectedPayment answers `answer`: the status, the outcome, what was told. */
async function reconcile(
  answer: unknown,
  paid: Partial<WebhookNotification['paymentRequest']> = {},
  hooks: Pick<WebhookReceiverOptions<unknown>, 'onMismatch'> = {},
) {
  const store = new MemoryIdempotencyStore();
  const record = recorder();
  const deliver = statusOf({
    store,
    ...record,
    ...hooks,
    expectedPayment: () => answer as never,
  });
  const base = notification();
  const n = { ...base, paymentRequest: { ...base.paymentRequest, ...paid } };
  const status = await deliver(signed(n, keys.privateKey));
  const query = `paymentId=${n.paymentId}&merchantPaymentId=${n.merchantPaymentId ?? ''}`;
  const response = await createFetchPaymentStatusHandler({ store })(
    new Request(`http://localhost/status?${query}`),
  );
  const outcome = ((await response.json()) as { status: string }).status;
  const messages = record.errors.map((e) => (e.error as Error).message);
  return { status, outcome, messages, notifications: record.notifications };
}

/** `amount` answered for a payment of `paid`: 200, NEEDS_REVIEW, and onMismatch told 'amount'. */
async function expectAmountReview(amount: unknown, paid: number) {
  const reasons: string[] = [];
  const result = await reconcile(
    { amount },
    { amount: paid },
    { onMismatch: ({ reason }) => void reasons.push(reason) },
  );
  expect(result).toMatchObject({ status: 200, outcome: 'NEEDS_REVIEW' });
  expect(reasons).toEqual(['amount']);
}

describe('a database’s shapes', () => {
  it.each([
    ['12.50', 12.5],
    ['12.5', 12.5],
    ['1250.00', 1250],
    ['12.500', 12.5], // a NUMERIC(10,3) column
    ['0012.50', 12.5],
    ['0.01', 0.01],
    ['1999.99', 1999.99],
    ['7', 7],
  ])('amount %s reconciles a payment of %s: COMPLETED', async (amount, paid) => {
    const result = await reconcile({ amount, currency: 'GBP' }, { amount: paid });
    expect(result).toMatchObject({ status: 200, outcome: 'COMPLETED', messages: [] });
  });

  it.each([
    ['12.50', 12.49],
    ['12.505', 12.5], // not a whole number of pence: never matches, as 12.499 does not
    ['1250.00', 12.5],
  ])('amount %s against a payment of %s: NEEDS_REVIEW (amount)', expectAmountReview);

  it('currency null (a nullable column) is GBP', async () => {
    expect(await reconcile({ amount: '12.50', currency: null })).toMatchObject({
      status: 200,
      outcome: 'COMPLETED',
    });
    const reasons: string[] = [];
    await reconcile(
      { amount: '12.50', currency: null },
      { currency: 'EUR' },
      { onMismatch: ({ reason }) => void reasons.push(reason) },
    );
    expect(reasons).toEqual(['currency']);
  });

  test.prop([fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), fc.nat({ max: 4 })])(
    'any whole number of pence written as a decimal parses back to exactly it',
    (pence, zeros) => {
      const text = `${pence / 100n}.${String(pence % 100n).padStart(2, '0')}${'0'.repeat(zeros)}`;
      expect(decimalPence(text)).toBe(Number(pence));
      expect(decimalPence(`-${text}`)).toBe(-Number(pence));
    },
  );
});

// The one pence rule (issue 48): a number is turned into pence by core's toPence, as the
// component validates it; a decimal string digit by digit, exactly.
describe('the pence of an answer', () => {
  it.each<[unknown, number]>([
    [12.5, 1250], // 12.50 is the same number
    ['12.50', 1250],
    ['12.5', 1250],
    [0.1 + 0.2, 30],
    ['0.30', 30],
    [134217895.61, 13421789561],
    ['134217895.61', 13421789561],
  ])('%s is %s pence', (amount, pence) => {
    expect(expectationOf({ amount }, 'pay-1')?.pence).toBe(pence);
  });

  it.each<unknown>([12.505, '12.505', 1e-7, 1e-9, '0.30000000000000004'])(
    '%s is no whole number of pence (NaN: it never matches a payment)',
    (amount) => {
      expect(expectationOf({ amount }, 'pay-1')?.pence).toBeNaN();
    },
  );

  it.each<[unknown, number]>([
    [134217895.61, 134217895.61], // the float error of a large amount is no mismatch
    ['134217895.61', 134217895.61],
    [0.1 + 0.2, 0.3],
  ])('an order of %s reconciles a payment of %s: COMPLETED', async (amount, paid) => {
    const result = await reconcile({ amount }, { amount: paid });
    expect(result).toMatchObject({ status: 200, outcome: 'COMPLETED', messages: [] });
  });

  it.each<[unknown, number]>([
    [0, 1e-9], // an absolute tolerance took 1e-9 for 0 pence
    [12.5, 12.505],
  ])('an order of %s against a payment of %s: NEEDS_REVIEW (amount)', expectAmountReview);
});

describe('answers refused: 500, the field named, no value quoted', () => {
  it.each<[string, unknown, string]>([
    [
      'a string amount that is no decimal',
      { amount: '12,50', email: PLANTED },
      "amount is a string that is not a decimal (digits, with a point and more digits: '12.50'; at most 13 digits of pounds) (keys given: amount, email)",
    ],
    ...[
      '',
      ' 12.50',
      '12.50 ',
      '1e3',
      '12.',
      '.5',
      '+12.50',
      '0x10',
      '£12.50',
      '12345678901234.00',
    ].map((amount): [string, unknown, string] => [
      `the amount ${JSON.stringify(amount)}`,
      { amount },
      "amount is a string that is not a decimal (digits, with a point and more digits: '12.50'; at most 13 digits of pounds) (keys given: amount)",
    ]),
    [
      'an amount that is not finite',
      { amount: Number.NaN },
      'amount is a number that is not finite (keys given: amount)',
    ],
    [
      'no amount',
      { total: '12.50', email: PLANTED },
      'amount is missing, not a number of pounds or a decimal string (keys given: total, email)',
    ],
    [
      'an amount that is an object',
      { amount: { value: PLANTED } },
      'amount is an object with keys value, not a number of pounds or a decimal string (keys given: amount)',
    ],
    [
      'a currency that is a number',
      { amount: 1, currency: 826 },
      'currency is a number, not a string or null (keys given: amount, currency)',
    ],
    [
      'a reference that is an array',
      { amount: 1, reference: [PLANTED] },
      'reference is an array, not a string or null (keys given: amount, reference)',
    ],
    [
      'an orderId that is a number',
      { amount: 1, orderId: 42 },
      'orderId is a number, not a string (give String(id) for a number, or leave orderId out) (keys given: amount, orderId)',
    ],
    [
      'an orderId that is null',
      { amount: 1, orderId: null },
      'orderId is null, not a string (give String(id) for a number, or leave orderId out) (keys given: amount, orderId)',
    ],
    [
      'an empty orderId',
      { amount: 1, orderId: '' },
      'orderId is a string of 0 characters (1 to 256) (keys given: amount, orderId)',
    ],
    [
      'an orderId too long to be a key',
      { amount: 1, orderId: PLANTED.repeat(10) },
      'orderId is a string of 280 characters (1 to 256) (keys given: amount, orderId)',
    ],
    [
      'acceptsPayment as a status word',
      { amount: 1, acceptsPayment: 'expired' },
      'acceptsPayment is a string, not true or false (keys given: amount, acceptsPayment)',
    ],
    [
      'acceptsPayment as a number',
      { amount: 1, acceptsPayment: 0 },
      'acceptsPayment is a number, not true or false (keys given: amount, acceptsPayment)',
    ],
  ])('%s', async (_, answer, problem) => {
    const result = await reconcile(answer);
    expect(result).toMatchObject({ status: 500, outcome: 'PENDING', notifications: [] });
    expect(result.messages).toHaveLength(1);
    expect(result.messages[0]).toBe(
      `servicepay: expectedPayment answered an object whose ${problem} for payment ${
        /payment (\S+),/.exec(result.messages[0] ?? '')?.[1]
      }, but it must answer { amount, currency?, reference?, orderId?, acceptsPayment? } (amount a number of pounds or a decimal string) or null; answered 500, so the service resends it and it is asked again.`,
    );
    expect(result.messages[0]).not.toContain(PLANTED);
    expect(result.messages[0]).not.toContain('expired');
  });

  it.each<[unknown, string]>([
    [PLANTED, 'a string'],
    [[{ amount: 1 }], 'an array'],
    [12.5, 'a number'],
    [true, 'a boolean'],
  ])('an answer that is no object (%s): named by its kind', async (answer, kind) => {
    const result = await reconcile(answer);
    expect(result.status).toBe(500);
    expect(result.messages[0]).toMatch(
      new RegExp(`^servicepay: expectedPayment answered ${kind} for payment `),
    );
    expect(result.messages[0]).not.toContain(PLANTED);
  });

  it('many keys: the first 20 named, the rest counted', () => {
    const answer = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`column_${i}`, i]));
    expect(() => expectationOf(answer, 'pay-1')).toThrow(
      /\(keys given: column_0, .*column_19 and 5 more\)/,
    );
  });

  it('null and undefined are no order, not an error', () => {
    expect(expectationOf(null, 'p')).toBeNull();
    expect(expectationOf(undefined, 'p')).toBeNull();
  });
});
