import type { ServiceError } from './events';
import type { Handoff } from './handoff';
import { deriveStatus } from './state';
import type { Problem, SessionState } from './state';
import type { Institution } from './transport';
import type { PreparedPayment } from './types';

type Changes = Partial<SessionState>;

/** A failed payment's sentence ends when the shopper moves on. */
const pastPayFailure = (s: SessionState): Problem | null =>
  s.problem === 'pay-failed' ? null : s.problem;

/**
 * Everything that can happen to a payment session, by name, and what each changes: the only
 * ways its state changes (downshift's `stateChangeTypes`, TanStack Query's `#dispatch`
 * actions). The session shell (./session) decides when each happens and does the effects
 * around it (fetch, timers, storage, opening the bank, merchant callbacks); this table says
 * what each does to the state, and nothing else. A table rather than a `switch`: the
 * smallest form, in a bundle where every byte counts.
 */
const transitions = {
  /** A fetch of the banks starts (mount, retry, Pay after a failure): earlier trouble is cleared. */
  load: (): Changes => ({ institutionsState: 'loading', error: null, problem: null, slow: false }),
  /** The fetch has taken longer than SLOW_LOAD_MS: the shopper is offered a retry. */
  slow: (): Changes => ({ slow: true }),
  /** The banks arrived; a step asked to open before them (`pending`) opens now. */
  loaded: (s: SessionState, institutions: readonly Institution[]): Changes => ({
    institutionsState: 'ready',
    institutions,
    listState: s.listState === 'pending' ? 'open' : s.listState,
    slow: false,
  }),
  /** The fetch failed, or there is nothing to fetch from. */
  loadFailed: (): Changes => ({ institutionsState: 'failed', slow: false }),
  /** An error went to the merchant; `problem`, when given, is what the shopper is told. */
  report: (s: SessionState, error: ServiceError, problem?: Problem | null): Changes => ({
    error,
    problem: problem === undefined ? s.problem : problem,
  }),
  /** A valid createPayment: the payment to pay, with the id it will use. */
  prepare: (s: SessionState, prepared: PreparedPayment, merchantPaymentId: string): Changes => ({
    prepared,
    merchantPaymentId,
    paymentInvalid: false,
    error: s.error?.location === 'payWithBankInstitution' ? null : s.error,
  }),
  /** A refused createPayment: the stale payment must not be paid. */
  refuse: (): Changes => ({ prepared: null, paymentInvalid: true }),
  /** The merchant's generator gave the next payment's id. */
  id: (_: SessionState, merchantPaymentId: string): Changes => ({ merchantPaymentId }),
  /** toggleButton. */
  toggle: (_: SessionState, payButtonEnabled: boolean): Changes => ({ payButtonEnabled }),
  /** The bank step opens (or waits for the banks); a handoff shown is left behind. */
  open: (s: SessionState): Changes => ({
    listState: s.institutionsState === 'ready' ? 'open' : 'pending',
    handoff: null,
  }),
  /** The bank step closes; a failed payment's sentence goes with it. */
  close: (s: SessionState): Changes => ({ listState: 'closed', problem: pastPayFailure(s) }),
  /** A payment starts at the institution; the id is renewed for the next one (spec 4.4 rule 4). */
  initiate: (
    s: SessionState,
    selectedInstitution: Institution,
    merchantPaymentId: string,
  ): Changes => ({
    paymentState: 'initiating',
    selectedInstitution,
    merchantPaymentId,
    error: null,
    problem: pastPayFailure(s),
  }),
  /** The payment being started stopped: it failed, or its component went. */
  stop: (): Changes => ({ paymentState: 'none' }),
  /** The bank's page was opened here, or (`handoff`) its address went to the shopper's phone. */
  opened: (_: SessionState, handoff: Handoff | null): Changes => ({
    paymentState: 'awaiting-authorisation',
    listState: 'closed',
    handoff,
  }),
  /** The shopper chose to open the handed-off bank on this computer. */
  continueHere: (): Changes => ({ handoff: null }),
  /** The last component went: work in flight is abandoned, so a remount starts afresh. */
  teardown: (s: SessionState): Changes => ({
    institutionsState: s.institutionsState === 'loading' ? 'idle' : s.institutionsState,
    paymentState: s.paymentState === 'initiating' ? 'none' : s.paymentState,
    slow: false,
  }),
};

type Transitions = typeof transitions;
type Data<F> = F extends (s: SessionState, ...data: infer D) => Changes ? D : [];

/** An event: its name, then its data (`['loaded', institutions]`). */
export type SessionEvent = {
  [K in keyof Transitions]: [K, ...Data<Transitions[K]>];
}[keyof Transitions];

/** The events' names. */
export type SessionEventType = keyof Transitions;

/** The next state: pure, a new object for every event (useSyncExternalStore compares them). */
export function reduce(s: SessionState, [type, ...data]: SessionEvent): SessionState {
  const next = {
    ...s,
    ...(transitions[type] as (s: SessionState, ...data: unknown[]) => Changes)(s, ...data),
  };
  // The rendered status is derived, never stored by hand.
  next.status = deriveStatus(next);
  return next;
}

/** The state a session starts in: with invalid options, failed for good (`unavailable`). */
export function initialState(
  merchantPaymentId: string,
  payButtonEnabled: boolean,
  optionsError: string,
): SessionState {
  const state = {
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
  } as Omit<SessionState, 'status'> as SessionState;
  state.status = deriveStatus(state);
  return state;
}
