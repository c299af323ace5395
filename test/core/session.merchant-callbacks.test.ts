import { afterEach, describe, expect, it, vi } from 'vitest';
import { reply } from '../helpers/fake-transport';
import { BANK, VALID_PAYMENT, mountReady, setup } from './support/harness';
import { WHOLE_PAYMENT } from '../helpers/events';

// A merchant callback that throws must not break the session (nor the session the page):
// the error goes to console.error and the payment carries on.

afterEach(() => {
  vi.restoreAllMocks();
});

function quietConsoleError() {
  return vi.spyOn(console, 'error').mockImplementation(() => undefined);
}

describe('merchant callbacks that throw', () => {
  it('eventConsumer: the whole payment still completes', async () => {
    const consoleError = quietConsoleError();
    const boom = new Error('analytics is down');
    const eventConsumer = vi.fn((_event: string): void => {
      throw boom;
    });
    const { session, transport, log } = setup({ eventConsumer });

    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();
    await session.payWithInstitution(BANK);

    expect(eventConsumer.mock.calls.map(([event]) => event)).toEqual(WHOLE_PAYMENT);
    expect(transport.paymentCalls).toHaveLength(1);
    expect(log.openUrl).toHaveBeenCalledTimes(1);
    expect(session.getState().status).toBe('awaiting-authorisation');
    expect(consoleError).toHaveBeenCalledTimes(6);
    expect(consoleError).toHaveBeenCalledWith('servicepay: eventConsumer threw', boom);
  });

  it('errorConsumer: the error is still shown and the session can recover', async () => {
    const consoleError = quietConsoleError();
    const errorConsumer = vi.fn(() => {
      throw new Error('logger is down');
    });
    const { session, transport } = setup({ errorConsumer });
    transport.replyOnce('fetchInstitutions', reply.fail('Service temporarily unavailable'));

    session.mount();
    await vi.waitFor(() => expect(errorConsumer).toHaveBeenCalledTimes(1));

    expect(errorConsumer).toHaveBeenCalledWith({
      location: 'fetchInstitutions',
      error: 'Service temporarily unavailable',
    });
    expect(session.getState()).toMatchObject({
      status: 'error',
      error: { location: 'fetchInstitutions', error: 'Service temporarily unavailable' },
    });
    expect(consoleError).toHaveBeenCalledWith('servicepay: errorConsumer threw', expect.any(Error));

    session.retry();
    await vi.waitFor(() => expect(session.getState().institutionsState).toBe('ready'));
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    expect(session.getState().status).toBe('awaiting-authorisation');
  });

  it('onPaymentInitiated: the payment is still sent and opened', async () => {
    const consoleError = quietConsoleError();
    const onPaymentInitiated = vi.fn(() => {
      throw new Error('order store is down');
    });
    const { session, transport, log } = setup({ onPaymentInitiated });
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    log.clear();

    await session.payWithInstitution(BANK);

    expect(onPaymentInitiated).toHaveBeenCalledTimes(1);
    expect(transport.paymentCalls).toHaveLength(1);
    expect(log.events()).toEqual([
      'payment_initiated',
      'institution_selected',
      'awaiting_authorisation',
    ]);
    expect(log.errors()).toEqual([]);
    expect(consoleError).toHaveBeenCalledWith(
      'servicepay: onPaymentInitiated threw',
      expect.any(Error),
    );
  });

  it('callbacks changed with setOptions are the ones called', async () => {
    const { session, options, log } = setup();
    session.mount();
    const later = vi.fn();
    session.setOptions({ ...options, eventConsumer: later });
    session.toggleButton(false);
    expect(later).toHaveBeenCalledExactlyOnceWith('pay_button_disabled');
    expect(log.events()).toEqual(['mounted']);
  });
});
