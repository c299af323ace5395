import { expect } from 'vitest';
import { createPaymentSession } from '../../../src/core';
import type {
  PaymentSession,
  SessionOptions,
  SessionState,
  SessionStatus,
} from '../../../src/core';
import { createEventLog } from '../../helpers/event-log';
import { createFakeTransport } from '../../helpers/fake-transport';
import type { FakeTransportOptions } from '../../helpers/fake-transport';
import { APP_ID } from '../../helpers/merchant';

export { APP_ID };
export const BANK = 'ob-monzo';
export const VALID_PAYMENT = Object.freeze({ amount: 12.5, paymentReference: 'ORDER-1042' });
export const NOT_PREPARED = (action: string) =>
  `servicepay: ${action} needs a valid payment: call createPayment({ amount, paymentReference }) first`;
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A session wired to a fake transport and one ordered log of events, errors and opened URLs. */
export function setup(overrides: Partial<SessionOptions> = {}, fake: FakeTransportOptions = {}) {
  const transport = createFakeTransport(fake);
  const log = createEventLog();
  const options: SessionOptions = {
    environment: 'SANDBOX',
    applicationId: APP_ID,
    transport,
    eventConsumer: log.eventConsumer,
    errorConsumer: log.errorConsumer,
    openUrl: log.openUrl,
    ...overrides,
  };
  const session = createPaymentSession(options);
  return { session, transport, log, options };
}

/** Mounts and waits until the institutions have arrived (the fake answers at once by default). */
export async function mountReady(session: PaymentSession): Promise<() => void> {
  const unmount = session.mount();
  const settled = await until(session, (s) => s.institutionsState !== 'loading');
  expect(settled.institutionsState).toBe('ready');
  return unmount;
}

/** Resolves with the state once `predicate` holds: no timers, driven by the session's own updates. */
export function until(
  session: PaymentSession,
  predicate: (state: SessionState) => boolean,
): Promise<SessionState> {
  return new Promise((resolve) => {
    if (predicate(session.getState())) return resolve(session.getState());
    const stop = session.subscribe(() => {
      if (!predicate(session.getState())) return;
      stop();
      resolve(session.getState());
    });
  });
}

/** Records every distinct status the session passes through, starting with the current one. */
export function statusTrail(session: PaymentSession): SessionStatus[] {
  const trail: SessionStatus[] = [session.getState().status];
  session.subscribe(() => {
    const { status } = session.getState();
    if (trail[trail.length - 1] !== status) trail.push(status);
  });
  return trail;
}
