/**
 * The result page's machine, as data: what the page shows (its states), everything that can
 * happen to it (its events, each named by `type`), and `reduceResult`, the one place where an
 * event changes the state, refusing the events a state does not take. No timers, no network,
 * no page: the controller (./result) decides when each event happens and does the effects
 * around it (listening, callbacks), as the session's shell does around its reducer.
 */
import type { PaymentResultMessages } from './catalogue';
import type { FinalPaymentStatus, PaymentReceipt, PaymentStatus } from './protocol';
import type { PaymentIds } from './saved-payment';

/**
 * What the page shows: `waiting` for the bank's word; `still-confirming` once that takes longer
 * than `notHeardAfterMs` (the page keeps listening, and says the shopper may close it);
 * `received` (COMPLETED); `not-completed` (FAILED); `needs-review` (NEEDS_REVIEW: the shop
 * checks the payment); `not-heard` past `stopListeningAfterMs`; `not-found` with no payment.
 */
export type PaymentResultState =
  | 'waiting'
  | 'still-confirming'
  | 'received'
  | 'not-completed'
  | 'needs-review'
  | 'not-heard'
  | 'not-found';

/** The state to render. A new object after every change (for useSyncExternalStore). */
export interface PaymentResultSnapshot {
  state: PaymentResultState;
  /** The payment followed; null until it is found, and when it is not. */
  payment: PaymentIds | null;
  /**
   * What was paid, as the status endpoint's answer says it (the merchant's `expose` adds
   * `paid`): in `received` and `needs-review` only, and null without it. A payment that was
   * not completed paid nothing, whatever the answer says.
   */
  paid: PaymentReceipt | null;
}

/**
 * Everything that can happen to the result page:
 * - `found`: mounted, it knows the payment to follow;
 * - `missing`: mounted, there is no payment to follow;
 * - `answered`: the status endpoint answered (`PENDING` changes nothing);
 * - `slow`: `notHeardAfterMs` passed with no final status;
 * - `horizon`: `stopListeningAfterMs` passed, and the last look found no final status;
 * - `checkAgain`: the shopper pressed Check again.
 */
export type PaymentResultEvent =
  | { type: 'found'; payment: PaymentIds }
  | { type: 'missing' }
  | { type: 'answered'; status: PaymentStatus; paid?: PaymentReceipt }
  | { type: 'slow' }
  | { type: 'horizon' }
  | { type: 'checkAgain' };

/** The state each final status shows. */
const FINAL_STATES = {
  COMPLETED: 'received',
  FAILED: 'not-completed',
  NEEDS_REVIEW: 'needs-review',
} as const satisfies Record<FinalPaymentStatus, PaymentResultState>;

/** Whether the page shows an outcome: no event leaves these states. */
export const isFinal = (state: PaymentResultState): boolean =>
  (Object.values(FINAL_STATES) as string[]).includes(state);

/** The states in which the page still listens for the outcome of a known payment. */
const listening = (s: PaymentResultSnapshot) =>
  !!s.payment && (s.state === 'waiting' || s.state === 'still-confirming');

/** The state before the page is mounted: waiting, for `payment` when the page was told it. */
export const initialResult = (payment: PaymentIds | null): PaymentResultSnapshot => ({
  state: 'waiting',
  payment,
  paid: null,
});

/**
 * The next state: pure. An event the state does not take returns the very same object, so
 * nothing re-renders and no effect follows (`test/core/result-machine.test.ts` has a row for
 * each, refused ones included).
 */
export function reduceResult(
  s: PaymentResultSnapshot,
  event: PaymentResultEvent,
): PaymentResultSnapshot {
  const unfound = s.state === 'waiting' && !s.payment;
  switch (event.type) {
    case 'found':
      return unfound ? { ...s, payment: event.payment } : s;
    case 'missing':
      return unfound ? { ...s, state: 'not-found' } : s;
    case 'answered':
      // A final status replaces anything but an outcome, also after the horizon: the shopper
      // who comes back to the page sees it.
      return event.status !== 'PENDING' && (listening(s) || s.state === 'not-heard')
        ? {
            ...s,
            state: FINAL_STATES[event.status],
            paid: (event.status !== 'FAILED' && event.paid) || null,
          }
        : s;
    case 'slow':
      return s.state === 'waiting' && s.payment ? { ...s, state: 'still-confirming' } : s;
    case 'horizon':
      return listening(s) ? { ...s, state: 'not-heard' } : s;
    case 'checkAgain':
      return s.state === 'not-heard' ? { ...s, state: 'waiting' } : s;
  }
}

/** A state's key in the messages table. */
type StateKey = Exclude<
  keyof PaymentResultMessages,
  `${string}Text` | `paid${string}` | 'tryAgain' | 'checkAgain'
>;

/** The shopper's words for a state: its heading and the sentence under it. */
export function resultText(
  state: PaymentResultState,
  messages: PaymentResultMessages,
): { heading: string; text: string } {
  // The table's keys are the states in camelCase: `still-confirming` → stillConfirming and
  // stillConfirmingText.
  const key = state.replace(/-./g, (dash) => dash[1]!.toUpperCase()) as StateKey;
  return { heading: messages[key], text: messages[`${key}Text`] };
}
