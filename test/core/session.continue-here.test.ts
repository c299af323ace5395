import { describe, expect, it } from 'vitest';
import { createPaymentSession } from '../../src/core';
import type { Institution, PaymentIds } from '../../src/core';
import { defaultInitiatedPayment } from '../helpers/fake-transport';
import { OPENED_IDS } from '../helpers/opened-ids';
import { BANK, VALID_PAYMENT, mountReady, setup, until } from './support/harness';

// "Continue on this computer" during a handoff (issue 48): the session's own work, through the
// one opener, with nothing of the session handed out (the extras only divert the address). The
// component's panel and the hook's continueHere are tested in test/react.

const FIRST_URL = defaultInitiatedPayment(1).authorisationUrl;

/** A session whose bank's address goes to the shopper's phone, as the extras wire it. */
function handedOff(openUrl: (url: string, payment: PaymentIds) => void) {
  const { options, log } = setup({ openUrl });
  const session = createPaymentSession({
    ...options,
    divert: (url: string, payment: PaymentIds, institution: Institution) => ({
      url,
      ...payment,
      institution,
    }),
  });
  return { session, log };
}

describe('continueHere, during a handoff', () => {
  it('leaves the handoff region, then opens the bank’s page here (openUrl)', async () => {
    const opened: [string, PaymentIds][] = [];
    const { session, log } = handedOff((url, payment) => opened.push([url, payment]));
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    await until(session, (s) => !!s.handoff);
    expect(opened).toEqual([]);
    session.continueHere();
    expect(session.getState()).toMatchObject({ handoff: null, status: 'awaiting-authorisation' });
    expect(opened).toEqual([[FIRST_URL, OPENED_IDS]]);
    expect(log.errors()).toEqual([]);
    // Once: the region is left, so a second call does nothing.
    session.continueHere();
    expect(opened).toHaveLength(1);
  });

  it('an openUrl that throws is reported at payWithBankInstitution, never thrown', async () => {
    const { session, log } = handedOff(() => {
      throw new Error('Navigation blocked by the page');
    });
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    expect(() => session.continueHere()).not.toThrow();
    expect(log.errors()).toEqual([
      {
        location: 'payWithBankInstitution',
        error:
          'servicepay: could not open the authorisation URL: Error: Navigation blocked by the page',
      },
    ]);
  });

  it('with no handoff: nothing is opened, nothing changes', async () => {
    const { session, log } = setup();
    await mountReady(session);
    const state = session.getState();
    session.continueHere();
    expect(session.getState()).toBe(state);
    expect(log.openedUrls()).toEqual([]);
  });
});
