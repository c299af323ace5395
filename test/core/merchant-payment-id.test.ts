import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentInitiatedDetails, ServiceEventName } from '../../src/core';
import { reply } from '../helpers/fake-transport';
import { BANK, UUID_V4, VALID_PAYMENT, mountReady, setup } from './support/harness';

// Spec 4.4 rule 4: every payment_initiated sets a new unique merchantPaymentId for the next
// payment; the id each payment used goes with its request and to onPaymentInitiated, so the
// merchant can match the webhook (spec 2.1).

afterEach(() => {
  vi.restoreAllMocks();
});

describe('merchantPaymentId', () => {
  it("uses the merchant's id for the first payment when given", async () => {
    const onPaymentInitiated = vi.fn();
    const { session, transport } = setup({ onPaymentInitiated });
    await mountReady(session);
    session.createPayment({ ...VALID_PAYMENT, merchantPaymentId: 'order-1042' });
    expect(session.getState().merchantPaymentId).toBe('order-1042');

    await session.payWithInstitution(BANK);

    expect(transport.paymentRequests[0]?.merchantPaymentId).toBe('order-1042');
    expect(onPaymentInitiated).toHaveBeenCalledExactlyOnceWith({
      merchantPaymentId: 'order-1042',
      institutionId: BANK,
    });
  });

  it('generates a UUID for the first payment when the merchant gave none', async () => {
    const { session, transport } = setup();
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    const shown = session.getState().merchantPaymentId;
    expect(shown).toMatch(UUID_V4);

    await session.payWithInstitution(BANK);
    expect(transport.paymentRequests[0]?.merchantPaymentId).toBe(shown);
  });

  it('renews the id on every payment_initiated while the previous one goes with its payment', async () => {
    const seenAtEvent: string[] = [];
    const handed: PaymentInitiatedDetails[] = [];
    const { session, transport } = setup(
      {
        eventConsumer: (event: ServiceEventName) => {
          if (event === 'payment_initiated') seenAtEvent.push(session.getState().merchantPaymentId);
        },
        onPaymentInitiated: (details) => handed.push(details),
      },
      { initiatePayment: reply.defer() },
    );
    await mountReady(session);

    const before: string[] = [];
    for (const institutionId of ['ob-monzo', 'ob-hsbc', 'ob-natwest']) {
      session.createPayment(VALID_PAYMENT);
      before.push(session.getState().merchantPaymentId);
      const paying = session.payWithInstitution(institutionId);
      // Renewed as soon as payment_initiated is emitted, before the backend answers.
      expect(session.getState().merchantPaymentId).not.toBe(before.at(-1));
      transport.paymentCalls.at(-1)!.resolve();
      await paying;
    }

    const sent = transport.paymentRequests.map((r) => r.merchantPaymentId);
    expect(sent).toEqual(before);
    expect(new Set(sent).size).toBe(3);
    expect(handed).toEqual([
      { merchantPaymentId: sent[0], institutionId: 'ob-monzo' },
      { merchantPaymentId: sent[1], institutionId: 'ob-hsbc' },
      { merchantPaymentId: sent[2], institutionId: 'ob-natwest' },
    ]);
    // At each payment_initiated the session already holds the next payment's id.
    expect(seenAtEvent).toEqual([sent[1], sent[2], session.getState().merchantPaymentId]);
    expect(sent).not.toContain(session.getState().merchantPaymentId);
    for (const id of [...sent, session.getState().merchantPaymentId]) expect(id).toMatch(UUID_V4);
  });

  it('renews the id even when the payment then fails', async () => {
    const { session, transport } = setup();
    transport.replyOnce('initiatePayment', reply.fail('Institution unavailable'));
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    await session.payWithInstitution(BANK);
    const [first, second] = transport.paymentRequests.map((r) => r.merchantPaymentId);
    expect(first).not.toBe(second);
  });

  it('after a merchant id was used, the next payment without one gets a generated id', async () => {
    const { session, transport } = setup();
    await mountReady(session);
    session.createPayment({ ...VALID_PAYMENT, merchantPaymentId: 'order-1042' });
    await session.payWithInstitution(BANK);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);

    const [first, second] = transport.paymentRequests.map((r) => r.merchantPaymentId);
    expect(first).toBe('order-1042');
    expect(second).toMatch(UUID_V4);
  });

  it('a merchant id replaced before paying is not used', async () => {
    const { session, transport } = setup();
    await mountReady(session);
    session.createPayment({ ...VALID_PAYMENT, merchantPaymentId: 'order-1042' });
    session.createPayment(VALID_PAYMENT);
    expect(session.getState().merchantPaymentId).not.toBe('order-1042');
    await session.payWithInstitution(BANK);
    expect(transport.paymentRequests[0]?.merchantPaymentId).toMatch(UUID_V4);
  });

  it('giving an already-used id again does not reuse it, and says so in development', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { session, transport, log } = setup();
    await mountReady(session);
    session.createPayment({ ...VALID_PAYMENT, merchantPaymentId: 'order-1042' });
    await session.payWithInstitution(BANK);

    expect(session.createPayment({ ...VALID_PAYMENT, merchantPaymentId: 'order-1042' })).toBe(true);
    await session.payWithInstitution(BANK);

    const [first, second] = transport.paymentRequests.map((r) => r.merchantPaymentId);
    expect(first).toBe('order-1042');
    expect(second).not.toBe('order-1042');
    expect(second).toMatch(UUID_V4);
    expect(log.errors()).toEqual([]);
    expect(warn).toHaveBeenCalledExactlyOnceWith(
      'servicepay: merchantPaymentId "order-1042" was already used by a payment; a new one is generated (spec 4.4 rule 4).',
    );
  });

  it('the generateMerchantPaymentId option makes the ids of the next payments', async () => {
    let n = 0;
    const generateMerchantPaymentId = vi.fn(() => `shop-${++n}`);
    const { session, transport } = setup({ generateMerchantPaymentId });
    await mountReady(session);
    session.createPayment({ ...VALID_PAYMENT, merchantPaymentId: 'order-1042' });
    await session.payWithInstitution(BANK);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);

    // shop-1 was made at mount for the first payment, then replaced by the merchant's own id:
    // ids must be unique, not contiguous.
    expect(transport.paymentRequests.map((r) => r.merchantPaymentId)).toEqual([
      'order-1042',
      'shop-2',
      'shop-3',
    ]);
    expect(session.getState().merchantPaymentId).toBe('shop-4');
  });

  it('the generateMerchantPaymentId option also makes the first payment id', async () => {
    let n = 0;
    const { session, transport } = setup({ generateMerchantPaymentId: () => `shop-${++n}` });
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);

    expect(transport.paymentRequests.map((r) => r.merchantPaymentId)).toEqual(['shop-1', 'shop-2']);
  });

  it('replaces a generated id outside the rule, and says so in development (one rule with servicepay/hosted)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { session, transport, log } = setup({ generateMerchantPaymentId: () => '  ' });
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    expect(transport.paymentRequests[0]?.merchantPaymentId).toMatch(UUID_V4);
    expect(warn).toHaveBeenCalledWith(
      'servicepay: generateMerchantPaymentId gave "  ", which must be a non-blank string of at most 200 characters without control characters: a random id is used',
    );
    expect(log.errors()).toEqual([]);
  });

  it('falls back to a UUID when the generator repeats a used id or throws', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const generateMerchantPaymentId = vi
      .fn<() => string>()
      .mockReturnValueOnce('order-1042')
      .mockImplementationOnce(() => {
        throw new Error('generator broke');
      });
    const { session, transport } = setup({ generateMerchantPaymentId });
    await mountReady(session);
    session.createPayment({ ...VALID_PAYMENT, merchantPaymentId: 'order-1042' });
    await session.payWithInstitution(BANK); // next: generator repeats order-1042
    await session.payWithInstitution(BANK); // next: generator throws

    const ids = [...transport.paymentRequests.map((r) => r.merchantPaymentId)];
    ids.push(session.getState().merchantPaymentId);
    expect(ids[0]).toBe('order-1042');
    expect(ids[1]).toMatch(UUID_V4);
    expect(ids[2]).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(3);
    expect(error).toHaveBeenCalledWith(
      'servicepay: generateMerchantPaymentId threw',
      expect.any(Error),
    );
  });
});
