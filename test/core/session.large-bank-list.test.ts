// An answer with more banks than any real list (finding 8): the session keeps every bank (the
// search covers them all; the view renders MAX_SHOWN_INSTITUTIONS) and tells the merchant once
// per load, through errorConsumer, never by throwing. A list like a real one, however long
// beside the rendered bound, is not reported.
import { describe, expect, it } from 'vitest';
import { reply } from '../helpers/fake-transport';
import { VALID_PAYMENT, setup, until } from './support/harness';

const banks = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `ob-${i + 1}`, name: `Bank ${i + 1}` }));

const LONG = (count: number) => `servicepay: fetchInstitutions answered ${count} banks, too many`;

async function load(answer: unknown) {
  const harness = setup();
  harness.transport.replyOnce('fetchInstitutions', reply.untyped(answer));
  harness.session.mount();
  const state = await until(harness.session, (s) => s.institutionsState !== 'loading');
  return { ...harness, state };
}

describe('a bank list longer than any real one', () => {
  it('1,000 banks: all kept, nothing reported', async () => {
    const { state, log } = await load(banks(1000));
    expect(state.institutions).toHaveLength(1000);
    expect(log.errors()).toEqual([]);
  });

  it('1,001 banks: all kept and usable, reported once with the count and the bounds', async () => {
    const { state, log } = await load(banks(1001));
    expect(state).toMatchObject({ institutionsState: 'ready', status: 'idle', error: null });
    expect(state.institutions).toHaveLength(1001);
    expect(log.errors()).toEqual([{ location: 'fetchInstitutions', error: LONG(1001) }]);
  });

  it('with bad entries too: still one report, naming both', async () => {
    const { state, log } = await load([null, ...banks(1001)]);
    expect(state.institutions).toHaveLength(1001);
    expect(log.errors()).toEqual([
      {
        location: 'fetchInstitutions',
        error: `${LONG(1002)}; servicepay: fetchInstitutions answer fixed: [0] dropped, not an object: null`,
      },
    ]);
  });

  it('is reported once per load: opening the list and paying at the last bank add nothing', async () => {
    const { session, transport, log } = await load(banks(5000));
    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();
    session.closeInstitutionSelection();
    session.openInstitutionSelection();
    await session.payWithInstitution('ob-5000');
    expect(transport.paymentRequests.map((r) => r.institutionId)).toEqual(['ob-5000']);
    expect(log.errors()).toEqual([{ location: 'fetchInstitutions', error: LONG(5000) }]);
  });
});
