// The one pence rule (issue 48): src/core/protocol.ts's toPence turns an amount in pounds into
// whole pence, or NaN, for the component's validation and the receiver's reconciliation alike.
// Before, validation tolerated float noise relative to the amount and reconciliation an
// absolute millionth of a penny: 1e-9 was 0 pence to one and refused by the other, and
// 134217895.61 was whole pence to one and a mismatch to the other.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { toPence } from '../../src/core/protocol';
import { validatePaymentArgs } from '../../src/core/validation';

const sent = (amount: unknown) => validatePaymentArgs({ amount, paymentReference: 'ORDER-1042' });

describe('toPence', () => {
  it.each<[string, number, number]>([
    ['12.5', 12.5, 1250],
    ['12.50', 12.5, 1250],
    ['0.1 + 0.2', 0.1 + 0.2, 30],
    ['0.3', 0.3, 30],
    ['4.35 (434.99999999999994 pence as a float)', 4.35, 435],
    ['1.15 (114.99999999999999 pence)', 1.15, 115],
    ['0.01', 0.01, 1],
    ['1999.99', 1999.99, 199999],
    [
      '134217895.61 (large: its float error outgrows a millionth of a penny)',
      134217895.61,
      13421789561,
    ],
    ['0', 0, 0],
    ['-12.5 (a refund’s sign is kept)', -12.5, -1250],
  ])('%s is whole pence: %s', (_, amount, pence) => {
    expect(toPence(amount)).toBe(pence);
  });

  it.each<[string, number]>([
    ['12.505', 12.505],
    ['1.005', 1.005],
    ['12.499', 12.499],
    ['134217895.615', 134217895.615],
    ['1e-7 (a ten-thousandth of a penny)', 1e-7],
    ['1e-9 (0 pence to an absolute tolerance)', 1e-9],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['NaN', Number.NaN],
  ])('%s is not a whole number of pence: NaN', (_, amount) => {
    expect(toPence(amount)).toBeNaN();
  });

  // Up to £100 billion; far beyond, a float in pounds cannot hold every penny (84265711319612.6
  // is not a double), and both halves then take the same neighbouring penny.
  test.prop([fc.integer({ min: 0, max: 10 ** 13 })])(
    'any whole number of pence, written in pounds, is those pence',
    (pence) => {
      expect(toPence(pence / 100)).toBe(pence);
      expect(toPence(Number((pence / 100).toFixed(2)))).toBe(pence);
    },
  );

  test.prop([fc.integer({ min: 0, max: 10 ** 10 }), fc.integer({ min: 1, max: 9 })])(
    'a third decimal is never noise (amounts under £100 million)',
    (pence, tenth) => {
      expect(toPence((pence * 10 + tenth) / 1000)).toBeNaN();
    },
  );
});

describe('the component takes exactly the amounts toPence makes whole', () => {
  it.each<[string, unknown, number]>([
    ['12.5', 12.5, 12.5],
    ['0.1 + 0.2, sent as 0.3', 0.1 + 0.2, 0.3],
    ['134217895.61', 134217895.61, 134217895.61],
    ['0.01', 0.01, 0.01],
  ])('%s is sent', (_, amount, sentAmount) => {
    expect(sent(amount)).toMatchObject({ ok: true, value: { amount: sentAmount } });
  });

  it.each<[string, unknown, string]>([
    ['12.505', 12.505, 'must have at most 2 decimal places'],
    ['1e-7', 1e-7, 'must have at most 2 decimal places'],
    ['1e-9', 1e-9, 'must have at most 2 decimal places'],
    ['0.004', 0.004, 'must have at most 2 decimal places'],
    ['2 ** 53 / 100', 2 ** 53 / 100, 'is too large'],
    ['Number.MAX_VALUE', Number.MAX_VALUE, 'is too large'],
    ["'12.50' (a string)", '12.50', 'must be a number'],
  ])('%s is refused', (_, amount, reason) => {
    const result = sent(amount);
    expect(result).toMatchObject({ ok: false, issue: { field: 'paymentRequest.amount', reason } });
  });

  test.prop([fc.double({ min: 1e-12, max: 1e12, noNaN: true })])(
    'an amount is sent if and only if toPence makes it at least a penny',
    (amount) => {
      const pence = toPence(amount);
      const result = sent(amount);
      expect(result.ok).toBe(pence >= 1);
      if (result.ok) expect(result.value.amount).toBe(pence / 100);
    },
  );
});
