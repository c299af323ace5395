import { useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createPaymentSession } from '../core/index';
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

// useLayoutEffect warns during server rendering in React 18; the options only matter in the browser.
const useClientLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

const ids = new WeakMap<object, number>();
let nextId = 0;
/** A key that changes only when the payment's value does. */
function valueKey(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.stringify(value);
  } catch {
    // Not serialisable (the session reports why); fall back to identity.
    const obj = value as object;
    if (!ids.has(obj)) ids.set(obj, nextId++);
    return `#${ids.get(obj)}`;
  }
}

/**
 * The payment engine, headless: everything `<ServicePay>` does, for merchants who draw their
 * own UI. The state lives in a core session; this hook only subscribes to it.
 */
export function useServicePayment(options: UseServicePaymentOptions): ServicePaymentApi {
  // Only these define the session; callbacks and flags are read at call time, so new inline
  // functions or option objects neither refetch nor re-create it.
  const key = `${options.environment}|${options.applicationId}|${options.baseUrl ?? ''}`;
  const [entry, setEntry] = useState(() => ({ key, session: createPaymentSession(options) }));
  let session: PaymentSession = entry.session;
  if (entry.key !== key) {
    session = createPaymentSession(options);
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

  const paymentKey = valueKey(options.payment);
  const payment = useRef(options.payment);
  useClientLayoutEffect(() => {
    session.setOptions(options);
    payment.current = options.payment;
  });
  const applied = useRef<{ session: PaymentSession; key: string | undefined }>(undefined);
  useEffect(() => {
    if (paymentKey === undefined) return;
    if (applied.current?.session === session && applied.current.key === paymentKey) return;
    applied.current = { session, key: paymentKey };
    session.createPayment(payment.current);
  }, [session, paymentKey]);

  const state = useSyncExternalStore(session.subscribe, session.getState, session.getState);
  const actions = useMemo(
    () => ({
      createPayment: (args: PaymentArgs) => session.createPayment(args),
      toggleButton: (enabled: boolean) => session.toggleButton(enabled),
      payWithInstitution: (id: string) => session.payWithInstitution(id),
      openInstitutionSelection: () => session.openInstitutionSelection(),
      closeInstitutionSelection: () => session.closeInstitutionSelection(),
      retry: () => session.retry(),
    }),
    [session],
  );
  return useMemo(() => ({ ...state, ...actions }), [state, actions]);
}
