import type { SessionState } from './state';
import type { SessionOptions } from './types';

// The payment session's interface, apart from its shell (./session) and its transitions
// (./session-events, ./session-reducer), so that each reads on its own.

export interface PaymentSession {
  /** The current state; a new object after every change (for useSyncExternalStore). */
  getState(): SessionState;
  /** Calls `listener` after every state change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /**
   * Replaces the options (callbacks, flags). Changing environment or applicationId needs a new
   * session. A `payment` whose value changed is applied (createPayment); a changed
   * `disablePayButton` acts as toggleButton. Merchant code may run: not while rendering.
   */
  setOptions(options: SessionOptions): void;
  /**
   * The state as a render with these options should show it: before setOptions has applied
   * their `payment` (the server, a first render, a render after it changed), its value when
   * valid, so the amount never jumps. Display only: paying needs the applied payment. Pure.
   */
  optimisticState(options: SessionOptions, base?: SessionState): SessionState;
  /**
   * Marks the UI as mounted: emits `mounted` and fetches the institutions on the first call.
   * Returns the unmount function; a remount in the same tick (React StrictMode) is not an unmount.
   */
  mount(): () => void;
  /** Validates and prepares the next payment (spec 2.3). Returns whether it was valid. */
  createPayment(args: unknown): boolean;
  /** Enables or disables the Pay button (spec 3). */
  toggleButton(enabled: unknown): void;
  /** Opens the bank list; before the institutions arrive it opens when they do. */
  openInstitutionSelection(): void;
  closeInstitutionSelection(): void;
  /** Starts the payment at an institution, as a click on its icon does. Never rejects. */
  payWithInstitution(institutionId: unknown): Promise<void>;
  /** Fetches the institutions again after a failure, or while a load is slow. */
  retry(): void;
  /** During a handoff (`state.handoff`): opens the bank's page on this computer instead. */
  continueHere(): void;
}

/** How a front door creates its session. */
export interface SessionInit {
  /**
   * Calls `generateMerchantPaymentId` for the first payment now rather than at the first
   * `mount()`. React creates sessions while rendering, where merchant code must not run, so
   * `<ServicePay>` leaves this off; the `Service` class of `servicepay/vanilla` is created by
   * page script, which may read `merchantPaymentId` before `injectComponent`.
   * @default false
   */
  generateFirstIdNow?: boolean;
}
