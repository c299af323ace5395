import type { ServiceError } from './events';
import type { Handoff } from './handoff';
import type { Problem, SessionState } from './state';
import type { Institution } from './transport';
import type { PreparedPayment } from './types';

/**
 * Everything that can happen to a payment session, by name, and what each changes: the only
 * ways its state changes (downshift's `stateChangeTypes`, TanStack Query's `#dispatch`
 * actions). The session shell (./session) decides when each happens and does the effects
 * around it (fetch, timers, storage, opening the bank, merchant callbacks); each event here
 * says whether the state takes it (its guard) and what it does to the state, nothing else, and
 * `reduce` (./session-reducer) applies it. An event is its function, not a string: the
 * bundles' minifier shortens the names, which a string's it cannot (124 B in every Pay
 * button's bundle, measured: docs/decisions.md).
 */
/**
 * The fields an event changes, when its guard holds (`guard && { ...changes }`); false or null
 * when the state does not take it (refused).
 */
type Changes = Partial<SessionState> | false | null;

/**
 * A fetch of the banks starts (mount, retry, Pay after a failure): a retry of a slow one, or
 * with no banks and none under way. Earlier trouble is cleared.
 */
export const load = (s: SessionState): Changes =>
  (s.slow || (s.institutionsState !== 'loading' && s.institutionsState !== 'ready')) && {
    institutionsState: 'loading',
    slow: false,
    error: null,
    problem: null,
  };
/** The fetch has taken longer than SLOW_LOAD_MS: the shopper is offered a retry. */
export const slow = (s: SessionState): Changes =>
  s.institutionsState === 'loading' && !s.slow && { slow: true };
/** The banks arrived; a step asked to open before them (`pending`) opens now. */
export const loaded = (s: SessionState, institutions: readonly Institution[]): Changes =>
  s.institutionsState === 'loading' && {
    institutionsState: 'ready',
    institutions,
    slow: false,
    listState: s.listState === 'pending' ? 'open' : s.listState,
  };
/** The fetch failed, or there is nothing to fetch from. */
export const loadFailed = (s: SessionState): Changes =>
  s.institutionsState === 'loading' && { institutionsState: 'failed', slow: false };
/** An error went to the merchant; `problem`, when given, is what the shopper is told. */
export const report = (
  s: SessionState,
  error: ServiceError,
  problem?: Problem | null,
): Changes => ({
  problem: problem === undefined ? s.problem : problem,
  error,
});
/** A valid createPayment: the payment to pay, with the id it will use. */
export const prepare = (
  s: SessionState,
  prepared: PreparedPayment,
  merchantPaymentId: string,
): Changes => ({
  prepared,
  merchantPaymentId,
  error: s.error?.location === 'payWithBankInstitution' ? null : s.error,
  paymentInvalid: false,
});
/** A refused createPayment: the stale payment must not be paid. */
export const refuse = (): Changes => ({ paymentInvalid: true, prepared: null });
/** The next payment's id (the merchant's generator's, else random): the first, and after initiate. */
export const id = (_: SessionState, merchantPaymentId: string): Changes => ({ merchantPaymentId });
/** toggleButton. */
export const toggle = (_: SessionState, payButtonEnabled: boolean): Changes => ({
  payButtonEnabled,
});
/** The bank step opens (or waits for the banks); a handoff shown is left behind. */
export const open = (s: SessionState): Changes =>
  s.prepared &&
  s.listState !== 'open' && {
    listState: s.institutionsState === 'ready' ? 'open' : 'pending',
    handoff: null,
  };
/** The bank step closes; a failed payment's sentence goes with it. */
export const close = (s: SessionState): Changes =>
  s.listState !== 'closed' && {
    listState: 'closed',
    problem: s.problem === 'pay-failed' ? null : s.problem,
  };
/**
 * A payment starts at the institution: of a prepared payment, one at a time. Its id is used
 * from now on: the next payment's follows (`id`, spec 4.4 rule 4).
 */
export const initiate = (s: SessionState, selectedInstitution: Institution): Changes =>
  s.prepared &&
  s.paymentState !== 'initiating' && {
    paymentState: 'initiating',
    selectedInstitution,
    error: null,
    problem: s.problem === 'pay-failed' ? null : s.problem,
  };
/** The payment being started stopped: it failed, or its component went. */
export const stop = (s: SessionState): Changes =>
  s.paymentState === 'initiating' && { paymentState: 'none' };
/** The bank's page was opened here, or (`handoff`) its address went to the shopper's phone instead. */
export const opened = (s: SessionState, handoff: Handoff | null = null): Changes =>
  s.paymentState === 'initiating' && {
    paymentState: 'awaiting-authorisation',
    listState: 'closed',
    handoff,
  };
/** The shopper continued here from a handoff: the region is left, the bank's page opens here. */
export const continued = (s: SessionState): Changes => s.handoff && { handoff: null };
/** The last component went: work in flight is abandoned, so a remount starts afresh. */
export const teardown = (s: SessionState): Changes => ({
  institutionsState: s.institutionsState === 'loading' ? 'idle' : s.institutionsState,
  paymentState: s.paymentState === 'initiating' ? 'none' : s.paymentState,
  slow: false,
});
