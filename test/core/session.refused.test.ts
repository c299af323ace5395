import { describe, expect, it } from 'vitest';
import { BANK, VALID_PAYMENT, mountReady, setup, until } from './support/harness';

// What the reducer refuses (test/core/session-reducer.test.ts has the table) does nothing in
// the session either (issue 48): the same state object, no subscriber told, no effect, no
// event for the merchant. Each call below is one the state does not take.

/**
 * A session, and `refuses(call)`: makes the call and expects it changed nothing the session's
 * subscribers see (the very same state object, nobody told).
 */
function counted(...args: Parameters<typeof setup>) {
  const made = setup(...args);
  let told = 0;
  made.session.subscribe(() => told++);
  const refuses = (call: () => void) => {
    const [before, toldBefore] = [made.session.getState(), told];
    call();
    expect(made.session.getState()).toBe(before);
    expect(told).toBe(toldBefore);
  };
  return { ...made, refuses };
}

describe('a call the session does not take', () => {
  it('closing a closed bank step: the same state, nobody told, no event', async () => {
    const { session, log, refuses } = counted();
    await mountReady(session);
    const eventsBefore = log.events().length;
    refuses(() => session.closeInstitutionSelection());
    expect(log.events()).toHaveLength(eventsBefore);
  });

  it('opening an open bank step: the same state, and bank_selection_opened only once', async () => {
    const { session, log, refuses } = counted();
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();
    refuses(() => session.openInstitutionSelection());
    expect(log.events().filter((event) => event === 'bank_selection_opened')).toHaveLength(1);
  });

  it('a retry with the banks here: no second fetch', async () => {
    const { session, transport, refuses } = counted();
    await mountReady(session);
    refuses(() => session.retry());
    expect(transport.calls.filter((call) => call.method === 'fetchInstitutions')).toHaveLength(1);
  });

  it('Pay twice while the first payment starts: one payment, one id used', async () => {
    const { session, transport, log } = counted();
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    const first = session.payWithInstitution(BANK);
    const second = session.payWithInstitution(BANK);
    await Promise.all([first, second]);
    await until(session, (s) => s.paymentState === 'awaiting-authorisation');
    expect(transport.calls.filter((call) => call.method === 'initiatePayment')).toHaveLength(1);
    expect(log.events().filter((event) => event === 'payment_initiated')).toHaveLength(1);
    expect(log.errors()).toEqual([]);
  });

  it('continueHere with no handoff shown: nothing opens, nobody told', async () => {
    const { session, log, refuses } = counted();
    await mountReady(session);
    refuses(() => session.continueHere());
    expect(log.openedUrls()).toEqual([]);
    expect(log.errors()).toEqual([]);
  });
});
