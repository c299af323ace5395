'use client';
import { useMemo } from 'react';
import { createPaymentResult, languageOf, resolveResultMessages, resultText } from '../core/index';
import { useController } from './useController';
import type { MadeElsewhere } from './useController';
import type {
  Catalogue,
  PaymentResultController,
  PaymentResultMessages,
  PaymentResultOptions,
  PaymentResultSnapshot,
} from '../core/index';

export interface UsePaymentResultOptions extends PaymentResultOptions {
  /**
   * The shopper's language: a catalogue (`import cy from 'servicepay/locales/cy'`, or your own,
   * docs/languages.md), whose `result` words the page shows, marked with its `lang`. Change it
   * at any time: the words change in place.
   * @default English (servicepay/locales/en)
   */
  locale?: Catalogue;
  /**
   * The result page's words, to reword any of them over the catalogue's (see
   * docs/languages.md). Partial: what is left out keeps the catalogue's words.
   */
  messages?: Partial<PaymentResultMessages>;
}

export interface PaymentResultApi extends PaymentResultSnapshot {
  /** The shopper's words for the current state, from the catalogue and `messages`. */
  text: { heading: string; text: string };
  /**
   * The language of `text` (the catalogue's tag, `'en-GB'` without one): put it on your page's
   * result as `lang` (WCAG 3.1.2).
   */
  lang: string;
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
  const { messages, locale } = options;
  return useMemo(
    () => ({
      ...snapshot,
      text: resultText(snapshot.state, resolveResultMessages(messages, locale)),
      lang: languageOf(locale, 'result'),
      checkAgain: controller.checkAgain,
      tryAgain: controller.tryAgain,
    }),
    [snapshot, controller, messages, locale],
  );
}
