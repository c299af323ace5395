'use client';
import { useMemo } from 'react';
import { createPaymentResult, resolveResultMessages, resultText } from '../core/index';
import { useController } from './useController';
import type { MadeElsewhere } from './useController';
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
  /** After `not-heard`: listens again, from the start, for another bounded while. */
  checkAgain(): void;
  /** After `not-completed`: calls `onTryAgain`. */
  tryAgain(): void;
}

/** Internal: a result controller made elsewhere (servicepay/vanilla's). */
export type ResultControllerProp = MadeElsewhere<'controller', PaymentResultController>;

/**
 * The controller behind `options` and its state, for `<PaymentResult>` and
 * `usePaymentResult`. A new `statusUrl` or `payment` follows another payment: a new controller.
 */
export function useResultController(
  options: UsePaymentResultOptions & ResultControllerProp,
): [PaymentResultController, PaymentResultSnapshot] {
  const given = options.controller;
  const { statusUrl, payment } = options;
  return useController(
    options,
    given ?? `${statusUrl}|${payment?.paymentId}|${payment?.merchantPaymentId}`,
    () => given ?? createPaymentResult(options),
  );
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
