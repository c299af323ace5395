import { describe, expect, it, vi } from 'vitest';
import { reply } from '../helpers/fake-transport';
import { BANK, VALID_PAYMENT, mountReady, setup, until } from './support/harness';

// mount() returns the unmount function; unmounting aborts what is in flight and the page is
// never redirected afterwards. React StrictMode mounts, unmounts and mounts again in the
// same tick: that is not an unmount.

const microtask = () => Promise.resolve();

describe('unmount', () => {
  it('aborts an in-flight institutions fetch', async () => {
    const { session, transport, log } = setup({}, { fetchInstitutions: reply.defer() });
    const unmount = session.mount();
    const call = transport.fetchCalls[0]!;

    unmount();
    await microtask();

    expect(call.aborted).toBe(true);
    expect(call.signal?.aborted).toBe(true);
    await expect(call.result).rejects.toMatchObject({ name: 'AbortError' });
    await until(session, (s) => s.institutionsState === 'idle');
    expect(log.entries).toEqual(['event:mounted']);
  });

  it('aborts an in-flight payment and never opens the URL', async () => {
    const { session, transport, log } = setup({}, { initiatePayment: reply.defer() });
    const unmount = await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    const paying = session.payWithInstitution(BANK);
    const call = transport.paymentCalls[0]!;

    unmount();
    await microtask();
    await paying;

    expect(call.aborted).toBe(true);
    expect(log.openUrl).not.toHaveBeenCalled();
    expect(log.events()).not.toContain('awaiting_authorisation');
    expect(log.errors()).toEqual([]);
    expect(session.getState().paymentState).toBe('none');
  });

  it('never opens the URL even if the backend answers after the unmount', async () => {
    const { session, transport, log } = setup(
      {},
      { initiatePayment: reply.defer(), respectAbort: false },
    );
    const unmount = await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    const paying = session.payWithInstitution(BANK);

    unmount();
    await microtask();
    transport.paymentCalls[0]!.resolve();
    await paying;

    expect(transport.paymentCalls[0]!.signal?.aborted).toBe(true);
    expect(log.openUrl).not.toHaveBeenCalled();
    expect(log.events()).not.toContain('awaiting_authorisation');
  });

  it('ignores institutions that arrive after the unmount', async () => {
    const { session, transport, log } = setup(
      {},
      { fetchInstitutions: reply.defer(), respectAbort: false },
    );
    const unmount = session.mount();
    unmount();
    await microtask();
    transport.fetchCalls[0]!.resolve();
    await transport.fetchCalls[0]!.result;
    await microtask();

    expect(log.events()).toEqual(['mounted']);
    expect(session.getState().institutions).toEqual([]);
  });

  it('calling the unmount function twice is harmless', async () => {
    const { session, transport } = setup({}, { fetchInstitutions: reply.defer() });
    const unmountA = session.mount();
    unmountA();
    const unmountB = session.mount();
    unmountA();
    await microtask();
    expect(transport.fetchCalls[0]!.aborted).toBe(false);
    unmountB();
    await microtask();
    expect(transport.fetchCalls[0]!.aborted).toBe(true);
  });

  it('a later remount fetches again without a second mounted event', async () => {
    const { session, transport, log } = setup({}, { fetchInstitutions: reply.defer() });
    const unmount = session.mount();
    unmount();
    await microtask();

    session.mount();
    expect(transport.fetchCalls).toHaveLength(2);
    transport.fetchCalls[1]!.resolve();
    await until(session, (s) => s.institutionsState === 'ready');
    expect(log.events()).toEqual(['mounted', 'institutions_fetched']);
  });

  // Regression (fixed): session.ts startPayment() runs while no UI is mounted (it only checked
  // `mounts === 0` after the backend answered) and then returned without leaving 'initiating'.
  // The payment is created at the backend, never opened, and the session stays 'initiating'
  // for good: after a remount every payWithInstitution is silently dropped.
  it('a payment started while unmounted does not lock the session', async () => {
    const { session, transport } = setup();
    const unmount = await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    unmount();
    await microtask();

    await session.payWithInstitution(BANK);
    const afterward = session.getState().paymentState;

    session.mount();
    await session.payWithInstitution(BANK);

    expect(afterward).not.toBe('initiating');
    expect(transport.paymentCalls.length).toBeGreaterThanOrEqual(1);
    expect(transport.paymentCalls.at(-1)?.status).toBe('resolved');
    expect(session.getState().status).toBe('awaiting-authorisation');
  });
});

describe('React StrictMode: mount, unmount, mount in the same tick', () => {
  it('keeps one fetch, emits mounted once, and does not abort', async () => {
    const { session, transport, log } = setup({}, { fetchInstitutions: reply.defer() });

    const unmountFirst = session.mount();
    unmountFirst();
    session.mount();
    await microtask();

    expect(transport.fetchCalls).toHaveLength(1);
    expect(transport.fetchCalls[0]!.aborted).toBe(false);
    expect(log.events()).toEqual(['mounted']);

    transport.fetchCalls[0]!.resolve();
    await until(session, (s) => s.institutionsState === 'ready');
    expect(log.events()).toEqual(['mounted', 'institutions_fetched']);
  });

  it('a payment in flight survives the double effect and opens its URL', async () => {
    const { session, transport, log } = setup({}, { initiatePayment: reply.defer() });
    const unmountFirst = await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    const paying = session.payWithInstitution(BANK);

    unmountFirst();
    session.mount();
    await microtask();
    transport.paymentCalls[0]!.resolve();
    await paying;

    expect(transport.paymentCalls[0]!.aborted).toBe(false);
    expect(log.openUrl).toHaveBeenCalledTimes(1);
  });
});

// Regression (fixed): session.ts lines 153 and 208 treat any AbortError as "we aborted it" (`signal.aborted
// || isAbortError(error)`), even when the session's own signal is not aborted. A transport
// that gives up with an AbortError of its own (its own timeout controller, a cancelled
// request in the host) leaves the session stuck: no error is reported, the fetch stays
// 'loading' and retry() does nothing, or the payment stays 'initiating' and every later
// payWithInstitution is dropped.
describe('an AbortError the session did not cause', () => {
  const ownTimeout = () => new DOMException('The operation was aborted.', 'AbortError');

  it('is reported at fetchInstitutions, and retry() fetches again', async () => {
    const { session, transport, log } = setup();
    transport.replyOnce('fetchInstitutions', reply.fail(ownTimeout()));
    session.mount();

    await vi.waitFor(() =>
      expect(log.errors().map((e) => e.location)).toEqual(['fetchInstitutions']),
    );
    expect(transport.fetchCalls[0]!.signal?.aborted).toBe(false);
    session.retry();
    expect(transport.fetchCalls).toHaveLength(2);
  });

  it('is reported at payWithBankInstitution and does not block the next payment', async () => {
    const { session, transport, log } = setup();
    transport.replyOnce('initiatePayment', reply.fail(ownTimeout()));
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);

    await session.payWithInstitution(BANK);
    const afterFirst = session.getState().paymentState;
    await session.payWithInstitution(BANK);

    expect(transport.paymentCalls[0]!.signal?.aborted).toBe(false);
    expect(afterFirst).toBe('none');
    expect(log.errors().map((e) => e.location)).toEqual(['payWithBankInstitution']);
    expect(transport.paymentCalls).toHaveLength(2);
  });
});
