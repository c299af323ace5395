import type * as events from './session-events';
import { withStatus } from './state';
import type { SessionState } from './state';

type Events = typeof events;
type Data<F> = F extends (s: SessionState, ...data: infer D) => unknown ? D : [];

/**
 * An event: its function (./session-events, where each is named), then its data
 * (`[loaded, institutions]`).
 */
export type SessionEvent = {
  [K in keyof Events]: [Events[K], ...Data<Events[K]>];
}[keyof Events];

/**
 * The next state: pure, a new object for every event taken (useSyncExternalStore compares them),
 * the same one for an event refused.
 */
export function reduce(s: SessionState, [event, ...data]: SessionEvent): SessionState {
  const changes = (event as (s: SessionState, ...data: unknown[]) => unknown)(s, ...data);
  // Refused: the very same state. Taken: the rendered status is derived, never stored by hand.
  return changes ? withStatus({ ...s, ...changes }) : s;
}

/** The state a session starts in: with invalid options, failed for good (`unavailable`). */
export const initialState = (
  merchantPaymentId: string,
  payButtonEnabled: boolean,
  optionsError: string,
): SessionState =>
  withStatus({
    institutionsState: optionsError ? 'failed' : 'idle',
    listState: 'closed',
    paymentState: 'none',
    institutions: [],
    payButtonEnabled,
    prepared: null,
    merchantPaymentId,
    selectedInstitution: null,
    error: optionsError ? { location: 'fetchInstitutions', error: optionsError } : null,
    problem: optionsError ? 'unavailable' : null,
    paymentInvalid: false,
    slow: false,
    handoff: null,
  });
