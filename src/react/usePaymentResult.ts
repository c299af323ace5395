'use client';
import { useEffect, useLayoutEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { createPaymentResult, resolveResultMessages, resultText } from '../core/index';
import type {
  PaymentResultController,
  PaymentResultMessages,
  PaymentResultOptions,
  PaymentResultSnapshot,
} from '../core/index';

export interface UsePaymentResultOptions extends PaymentResultOptions {
  /**
   * The result page's words, to translate or reword any of them (see docs/messages.md).
   * Partial: what is left out keeps its English default.
   */
  messages?: Partial<PaymentResultMessages>;
}

export interface PaymentResultApi extends PaymentResultSnapshot {
  /** The shopper's words for the current state, from the messages table. */
  text: { heading: string; text: string };
  /** After `not-heard`: waits again, for another bounded while. */
  checkAgain(): void;
  /** After `not-completed`: calls `onTryAgain`. */
  tryAgain(): void;
}

/**
 * Internal (not exported by the package's entries): a controller made elsewhere, which the
 * view renders instead of making its own. `ServiceResult` (servicepay/vanilla) uses it.
 */
export interface ResultControllerProp {
  controller?: PaymentResultController;
  /** Put before the element ids: Preact numbers `useId` from zero in every root. */
  idPrefix?: string;
}

// useLayoutEffect warns during server rendering in React 18; the options only matter in the browser.
const useClientLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/**
 * The controller behind `options` and its state, for `<PaymentResult>` and
 * `usePaymentResult`. A new `statusUrl` or `payment` follows another payment: a new controller.
 */
export function useResultController(
  options: UsePaymentResultOptions & ResultControllerProp,
): [PaymentResultController, PaymentResultSnapshot] {
  const given = options.controller;
  const { statusUrl, payment } = options;
  const key = given ?? `${statusUrl}|${payment?.paymentId}|${payment?.merchantPaymentId}`;
  const make = () => given ?? createPaymentResult(options);
  const [entry, setEntry] = useState(() => ({ key, controller: make() }));
  let controller = entry.controller;
  if (entry.key !== key) {
    controller = make();
    setEntry({ key, controller });
  }
  // Callbacks and the bound are read at call time: new inline functions change nothing else.
  useClientLayoutEffect(() => controller.setOptions(options));
  // In the browser only, after the first render: the server and the first client render
  // both show `waiting`, so hydration matches.
  useEffect(() => controller.start(), [controller]);
  const snapshot = useSyncExternalStore(
    controller.subscribe,
    controller.getState,
    controller.getState,
  );
  return [controller, snapshot];
}

/**
 * The result page, headless: which state the payment is in, its words, and the two actions,
 * for merchants who draw their own page. `<PaymentResult>` renders the same.
 */
export function usePaymentResult(options: UsePaymentResultOptions): PaymentResultApi {
  const [controller, snapshot] = useResultController(options);
  const { messages } = options;
  return useMemo(
    () => ({
      ...snapshot,
      text: resultText(snapshot.state, resolveResultMessages(messages)),
      checkAgain: controller.checkAgain,
      tryAgain: controller.tryAgain,
    }),
    [snapshot, controller, messages],
  );
}
