import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_MESSAGES, shopperText } from '../../src/core/index';
import { VALID_PAYMENT, setup } from './support/harness';

// What the React binding used to compute, now the session's (issue 12, item 10): the `payment`
// option applied by value, `disablePayButton` changes acting as toggleButton, and the
// optimistic amount shown before the options are applied. window.Service and React share it.

describe('setOptions with declarative options', () => {
  it('applies the payment option once per value, not per object', () => {
    const { session, options } = setup();
    const createPayment = vi.spyOn(session, 'createPayment');
    session.setOptions({ ...options, payment: { ...VALID_PAYMENT } });
    session.setOptions({ ...options, payment: { ...VALID_PAYMENT } });
    expect(createPayment).toHaveBeenCalledTimes(1);
    expect(session.getState().prepared).toMatchObject({ amount: 12.5, reference: 'ORDER-1042' });
    session.setOptions({ ...options, payment: { amount: 20, paymentReference: 'ORDER-1043' } });
    expect(session.getState().prepared).toMatchObject({ amount: 20, reference: 'ORDER-1043' });
  });

  it('reports an invalid payment option once, however often it is passed again', () => {
    const { session, options, log } = setup();
    const bad = { amount: -1, paymentReference: 'R' };
    for (let i = 0; i < 3; i++) session.setOptions({ ...options, payment: { ...bad } });
    expect(log.errors()).toHaveLength(1);
    expect(session.getState()).toMatchObject({ prepared: null, paymentInvalid: true });
  });

  it('a change of disablePayButton acts as toggleButton; the same value does nothing', () => {
    const { session, options, log } = setup({ disablePayButton: true });
    expect(session.getState().payButtonEnabled).toBe(false);
    session.setOptions({ ...options, disablePayButton: true });
    expect(log.events()).toEqual([]);
    session.setOptions({ ...options, disablePayButton: false });
    session.setOptions({ ...options, disablePayButton: false });
    expect(session.getState().payButtonEnabled).toBe(true);
    expect(log.events()).toEqual(['pay_button_enabled']);
  });
});

describe('optimisticState', () => {
  it('shows a valid payment option before it is applied, with no merchant code run', () => {
    const { session, options, log } = setup();
    const next = { ...options, payment: VALID_PAYMENT };
    expect(session.optimisticState(next).prepared).toMatchObject({ amount: 12.5 });
    expect(session.getState().prepared).toBeNull();
    expect(log.entries).toEqual([]);
    session.setOptions(next);
    expect(session.optimisticState(next)).toBe(session.getState());
  });

  it('shows nothing for an invalid one, and the shopper reads why once it is applied', () => {
    const { session, options } = setup();
    const next = { ...options, payment: { amount: 0, paymentReference: '' } };
    expect(session.optimisticState(next).prepared).toBeNull();
    session.setOptions(next);
    expect(shopperText(session.getState(), DEFAULT_MESSAGES).payHint).toBe(
      DEFAULT_MESSAGES.paymentInvalid,
    );
  });
});
