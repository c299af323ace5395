'use client';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createPaymentSession, validatePaymentArgs } from '../core/index';
import type { PaymentArgs, PaymentSession, SessionOptions, SessionState } from '../core/index';

export interface UseServicePaymentOptions extends SessionOptions {
  /**
   * The createPayment arguments, given declaratively. Re-applied only when their value
   * changes (a new object with the same content does nothing).
   */
  payment?: PaymentArgs;
}

/** The actions of a payment session; also what the `<ServicePay>` ref handle exposes. */
export interface ServicePayHandle {
  /** Validates and prepares the next payment (spec 2.3). Returns whether it was valid. */
  createPayment(args: PaymentArgs): boolean;
  /** Enables (true) or disables (false) the Pay button. */
  toggleButton(enabled: boolean): void;
  /** Starts the payment at an institution, as a click on its icon does. */
  payWithInstitution(institutionId: string): Promise<void>;
  /** Opens the bank list; before the institutions arrive, it opens when they do. */
  openInstitutionSelection(): void;
}

export interface ServicePaymentApi extends SessionState, ServicePayHandle {
  closeInstitutionSelection(): void;
  /** Fetches the institutions again after a failed fetch. */
  retry(): void;
}

type Action = keyof ServicePayHandle | 'closeInstitutionSelection' | 'retry';

/** The session's methods need no `this`, so they are handed out as they are. */
export function pick<K extends Action>(
  session: PaymentSession,
  ...keys: K[]
): Pick<PaymentSession, K> {
  return Object.fromEntries(keys.map((key) => [key, session[key]])) as Pick<PaymentSession, K>;
}

// useLayoutEffect warns during server rendering in React 18; the options only matter in the browser.
const useClientLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Internal (not exported by the package's entries): a session made elsewhere, which the
 * component renders instead of making its own. `servicepay/vanilla` uses it so that its class
 * and the rendered `<ServicePay>` drive one session.
 */
export interface SessionProp {
  session?: PaymentSession;
  /**
   * Put before the component's element ids. Preact numbers `useId` from zero in every root,
   * so two `Service` instances on one page would otherwise share ids.
   */
  idPrefix?: string;
}

/**
 * The session behind `options` and its current state, for `<ServicePay>` and
 * `useServicePayment`. The state lives in the core session; this hook only subscribes to it.
 */
export function useSession(
  options: UseServicePaymentOptions & SessionProp,
): [PaymentSession, SessionState] {
  // Only these define the session; callbacks and flags are read at call time, so new inline
  // functions or option objects neither refetch nor re-create it.
  const given = options.session;
  const key = given ?? `${options.environment}|${options.applicationId}|${options.baseUrl ?? ''}`;
  const make = () => given ?? createPaymentSession(options);
  const [entry, setEntry] = useState(() => ({ key, session: make() }));
  let session: PaymentSession = entry.session;
  if (entry.key !== key) {
    session = make();
    setEntry({ key, session });
  }

  useEffect(() => session.mount(), [session]);

  const disabled = !!options.disablePayButton;
  const lastDisabled = useRef(disabled);
  useEffect(() => {
    // disablePayButton sets the initial state; later changes of the prop act as toggleButton.
    if (lastDisabled.current === disabled) return;
    lastDisabled.current = disabled;
    session.toggleButton(!disabled);
  }, [session, disabled]);

  // A key that changes only when the payment's value does (JSON.stringify(undefined) is
  // undefined: nothing to apply). A payment that is not JSON (the session reports why) is
  // keyed by identity.
  let paymentKey: unknown = options.payment;
  try {
    paymentKey = JSON.stringify(paymentKey);
  } catch {
    // Keyed by identity.
  }
  const payment = useRef(options.payment);
  useClientLayoutEffect(() => {
    session.setOptions(options);
    payment.current = options.payment;
  });
  const applied = useRef<[PaymentSession, unknown]>(undefined);
  useEffect(() => {
    if (paymentKey === undefined) return;
    if (applied.current?.[0] === session && applied.current[1] === paymentKey) return;
    applied.current = [session, paymentKey];
    session.createPayment(payment.current);
  }, [session, paymentKey]);

  const state = useSyncExternalStore(session.subscribe, session.getState, session.getState);
  // The payment prop reaches the session in the effect above, so on the server, in the first
  // render and in a render after it changed, the session's `prepared` is not yet (or no longer)
  // the prop's. Until the effect has run, the prop's own value is shown when it is valid: the
  // server HTML already says "Pay £12.50", with no jump once hydrated. Display only: paying
  // still needs the session's prepared payment.
  if (
    paymentKey !== undefined &&
    !(applied.current?.[0] === session && applied.current[1] === paymentKey)
  ) {
    const shown = validatePaymentArgs(options.payment);
    if (shown.ok) return [session, { ...state, prepared: shown.value }];
  }
  return [session, state];
}

/**
 * The payment engine, headless: everything `<ServicePay>` does, for merchants who draw their
 * own UI.
 */
export function useServicePayment(options: UseServicePaymentOptions): ServicePaymentApi {
  const [session, state] = useSession(options);
  return useMemo(
    () => ({
      ...state,
      ...pick(
        session,
        'createPayment',
        'toggleButton',
        'payWithInstitution',
        'openInstitutionSelection',
        'closeInstitutionSelection',
        'retry',
      ),
    }),
    [state, session],
  );
}
