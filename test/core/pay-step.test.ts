import { describe, expect, it } from 'vitest';
import { DEFAULT_MESSAGES, payStep, shopperText } from '../../src/core/index';
import type { PaymentSession } from '../../src/core/index';
import { reply } from '../helpers/fake-transport';
import { BANK, VALID_PAYMENT, mountReady, setup, until } from './support/harness';

// The Pay step's rules as data (issue 21, item 2): one function from the session's state to
// what the button says and does, which <ServicePay>, window.Service and useServicePayment's
// `payStep` all render. Driven here through a real session, state by state.

const step = (session: PaymentSession) => payStep(session.getState(), DEFAULT_MESSAGES, session);

/** The step without its function, and which of the session's actions a press performs. */
function seen(session: PaymentSession) {
  const { action, ...rest } = step(session);
  const names = ['openInstitutionSelection', 'closeInstitutionSelection', 'retry'] as const;
  return { ...rest, press: names.find((name) => session[name] === action) ?? null };
}

describe('payStep', () => {
  it('before a payment: "Pay", disabled, saying why; then the amount, and a press opens the banks', async () => {
    const { session } = setup();
    await mountReady(session);
    expect(seen(session)).toEqual({
      label: 'Pay',
      disabled: true,
      busy: false,
      expanded: false,
      press: null,
      hint: DEFAULT_MESSAGES.paymentNotReady,
      status: '',
      error: '',
    });
    session.createPayment(VALID_PAYMENT);
    expect(seen(session)).toMatchObject({
      label: 'Pay £12.50',
      disabled: false,
      press: 'openInstitutionSelection',
      hint: '',
    });
    step(session).action?.();
    expect(session.getState().listState).toBe('open');
    expect(seen(session)).toMatchObject({ expanded: true, press: 'closeInstitutionSelection' });
    step(session).action?.();
    expect(session.getState().listState).toBe('closed');
  });

  it('switched off by the merchant, or refused: disabled with the matching hint', async () => {
    const { session } = setup();
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    session.toggleButton(false);
    expect(seen(session)).toMatchObject({
      disabled: true,
      press: null,
      hint: DEFAULT_MESSAGES.payUnavailable,
    });
    session.createPayment({ amount: -1, paymentReference: 'R' });
    expect(seen(session)).toMatchObject({
      label: 'Pay',
      disabled: true,
      hint: DEFAULT_MESSAGES.paymentInvalid,
    });
  });

  it('after a failed load Pay is the retry, whatever else would disable it, and no hint shows', async () => {
    const { session, transport } = setup({}, {});
    transport.replyOnce('fetchInstitutions', reply.fail('Service unavailable'));
    transport.replyOnce('fetchInstitutions', reply.fail('Service unavailable'));
    session.mount();
    await until(session, (s) => s.institutionsState === 'failed');
    // No payment yet: the press fetches again.
    expect(seen(session)).toEqual({
      label: DEFAULT_MESSAGES.retry,
      disabled: false,
      busy: false,
      expanded: false,
      press: 'retry',
      hint: '',
      status: '',
      error: DEFAULT_MESSAGES.loadFailed,
    });
    // The hook's `text` says the same as the step (its payHint is '' while Pay is the retry).
    expect(shopperText(session.getState(), DEFAULT_MESSAGES)).toEqual({
      alert: DEFAULT_MESSAGES.loadFailed,
      status: '',
      payHint: '',
    });
    step(session).action?.();
    await until(session, (s) => s.institutionsState === 'failed');
    expect(transport.fetchCalls).toHaveLength(2);
    // With a payment, the press opens the step, which fetches and opens once the banks arrive.
    session.createPayment(VALID_PAYMENT);
    expect(seen(session).press).toBe('openInstitutionSelection');
    step(session).action?.();
    await until(session, (s) => s.listState === 'open' && s.institutionsState === 'ready');
    expect(transport.fetchCalls).toHaveLength(3);
  });

  it('while the bank opens: busy, its name on the button, a press does nothing; then continue at the bank', async () => {
    const { session, transport, log } = setup();
    transport.replyTo('initiatePayment', reply.defer());
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();
    void session.payWithInstitution(BANK);
    const opening = DEFAULT_MESSAGES.opening('Monzo');
    expect(seen(session)).toMatchObject({
      label: opening,
      busy: true,
      press: null,
      status: opening,
    });
    transport.paymentCalls[0]?.resolve();
    await until(session, (s) => s.status === 'awaiting-authorisation');
    expect(log.openedUrls()).toHaveLength(1);
    expect(seen(session)).toMatchObject({
      label: 'Pay £12.50',
      busy: false,
      expanded: false,
      status: DEFAULT_MESSAGES.awaiting,
    });
  });

  it('a failed payment: the alert names the bank and the step stays open on it', async () => {
    const { session, transport } = setup();
    transport.replyOnce('initiatePayment', reply.fail('Bank down'));
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();
    await session.payWithInstitution(BANK);
    expect(seen(session)).toMatchObject({
      expanded: true,
      press: 'closeInstitutionSelection',
      error: DEFAULT_MESSAGES.payFailed('Monzo'),
    });
  });

  it('takes its words from the messages given (a translation, the payLabel prop)', async () => {
    const { session } = setup();
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    const words = { ...DEFAULT_MESSAGES, payLabel: 'Payer £' };
    expect(payStep(session.getState(), words, session).label).toBe('Payer £12.50');
  });
});
