// The status answer's codec (src/core/protocol.ts), as the result page reads what the shop's
// status endpoint sent: the status, and what was paid (`paid`, from the merchant's `expose`,
// issue 47). A malformed answer is no answer; a malformed part of `paid` is left out, never
// shown, and the rest of it stands.
import { describe, expect, it } from 'vitest';
import {
  decodeStatusAnswer,
  encodeStatusAnswer,
  MAX_ID_LENGTH,
  receiptOf,
  toPence,
} from '../../src/core/protocol';

const PAID = { amount: 12.5, payee: 'Example Coffee Co.', reference: 'ORDER-1042' };
const withPaid = (paid: unknown) => JSON.stringify({ status: 'COMPLETED', paid });

describe('decodeStatusAnswer', () => {
  it('reads the status alone, as the endpoint answers by default', () => {
    expect(decodeStatusAnswer('{"status":"COMPLETED"}')).toEqual({ status: 'COMPLETED' });
    expect(decodeStatusAnswer(encodeStatusAnswer('PENDING'))).toEqual({ status: 'PENDING' });
  });

  it('reads what was paid beside it, and nothing else of the merchant’s fields', () => {
    expect(decodeStatusAnswer(encodeStatusAnswer('COMPLETED', { paid: PAID, order: 7 }))).toEqual({
      status: 'COMPLETED',
      paid: PAID,
    });
  });

  it.each([
    ['not JSON', '{"status":'],
    ['null', 'null'],
    ['a bare string', '"COMPLETED"'],
    ['an unknown status', '{"status":"SETTLED"}'],
    ['a status of another case', '{"status":"completed"}'],
    ['no status, only paid', JSON.stringify({ paid: PAID })],
  ])('is no answer: %s', (_, text) => {
    expect(decodeStatusAnswer(text)).toBeUndefined();
  });

  it.each([
    ['null', null],
    ['a string', 'ORDER-1042'],
    ['a number', 12.5],
    ['an array', [12.5, 'ORDER-1042']],
    ['an empty object', {}],
    ['an object of unknown fields', { total: 12.5, to: 'Example Coffee Co.' }],
    ['every field malformed', { amount: '12.50', payee: '', reference: 42 }],
  ])('leaves out a paid that says nothing usable: %s', (_, paid) => {
    expect(decodeStatusAnswer(withPaid(paid))).toEqual({ status: 'COMPLETED' });
  });
});

describe('receiptOf: each field by its rule, the others kept', () => {
  it.each([
    ['a string', '12.50'],
    ['zero', 0],
    ['negative', -12.5],
    ['a third decimal', 12.505],
    ['not whole pence by far', 0.001],
    ['past 2^53 pence', 2 ** 53],
    ['a boolean', true],
    ['null', null],
  ])('amount: %s is left out', (_, amount) => {
    expect(receiptOf({ ...PAID, amount })).toEqual({
      payee: PAID.payee,
      reference: PAID.reference,
    });
  });

  it('amount: pounds in whole pence, floating point noise forgiven', () => {
    expect(receiptOf({ amount: 0.01 })).toEqual({ amount: 0.01 });
    expect(receiptOf({ amount: 0.1 + 0.2 })).toEqual({ amount: 0.1 + 0.2 });
    expect(receiptOf({ amount: 1_234_567.89 })).toEqual({ amount: 1_234_567.89 });
    expect(toPence(0.1 + 0.2)).toBe(30);
    expect(toPence(12.505)).toBeNaN();
    expect(toPence(Infinity)).toBeNaN();
  });

  it.each([
    ['empty', ''],
    ['blank', '  \u00a0'],
    ['a control character (a new line)', 'Example\nCoffee'],
    ['a control character (DEL)', 'Example\u007f'],
    ['too long', 'x'.repeat(MAX_ID_LENGTH + 1)],
    ['a number', 1042],
    ['an object', { name: 'Example Coffee Co.' }],
  ])('payee and reference: %s is left out', (_, text) => {
    expect(receiptOf({ ...PAID, payee: text })).toEqual({
      amount: PAID.amount,
      reference: PAID.reference,
    });
    expect(receiptOf({ ...PAID, reference: text })).toEqual({
      amount: PAID.amount,
      payee: PAID.payee,
    });
  });

  it('payee and reference: any text up to 200 characters, kept as given (markup is text)', () => {
    const payee = 'Caffi <b>Cymru</b> & “Co” ☕';
    const reference = 'r'.repeat(MAX_ID_LENGTH);
    expect(receiptOf({ payee, reference })).toEqual({ payee, reference });
  });

  it('one field is enough', () => {
    expect(receiptOf({ reference: 'ORDER-1042' })).toEqual({ reference: 'ORDER-1042' });
  });
});
