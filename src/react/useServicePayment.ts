'use client';
import { useMemo } from 'react';
import {
  createPaymentSession,
  languageOf,
  payStep,
  resolveMessages,
  shopperText,
} from '../core/index';
import type { ServicePayExtras } from './extras-contract';
import { useController } from './useController';
import type { MadeElsewhere } from './useController';
import type {
  Catalogue,
  Handoff,
  PaymentArgs,
  PayStep,
  PaymentSession,
  ServiceMessagesOption,
  SessionOptions,
  SessionState,
  ShopperText,
} from '../core/index';

export interface UseServicePaymentOptions extends SessionOptions {
  /**
   * The shopper's language: a catalogue (`import cy from 'servicepay/locales/cy'`, or your own,
   * docs/languages.md). Every word, the handoff panel's too, is in it, marked with its `lang`;
   * numbers are written as it writes them. Change it at any time: the words change in place.
   * @default English (servicepay/locales/en)
   */
  locale?: Catalogue;
  /**
   * The shopper's words, to reword any of them over the catalogue's (see docs/languages.md).
   * Partial: what is left out keeps the catalogue's words.
   */
  messages?: ServiceMessagesOption;
  /**
   * Where your status endpoint is mounted (`createPaymentStatusHandler`, e.g.
   * `/api/payments/status`). With it, a shopper on a desktop is offered "Scan with your phone"
   * after choosing a bank, and the page follows the payment's outcome in place
   * (docs/handoff.md). Without it the handoff is not offered. Needs `extras`; `useServicePayment` then returns the handoff for you to draw.
   */
  statusUrl?: string;
  /**
   * `false` turns the desktop handoff off: the bank's page opens on this computer, as on
   * phones. It is offered only with `statusUrl`, on a desktop (never on touch screens).
   * @default true
   */
  handoff?: boolean;
  /**
   * The opt-in extras (`import { extras } from 'servicepay/extras'`): the desktop handoff
   * (with `statusUrl`), the remembered bank and the featured banks (docs/handoff.md).
   * Without them those options do nothing, and the page does not carry their code.
   */
  extras?: ServicePayExtras;
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
  /**
   * The language of `text` and `payStep` (the catalogue's tag, `'en-GB'` without one): put it
   * on your markup's root as `lang` (WCAG 3.1.2).
   */
  lang: string;
  /**
   * What to tell the shopper about the current state, from the messages table: never the
   * developer's text of `error`.
   */
  text: ShopperText;
  /**
   * The Pay step as `<ServicePay>` draws it: the button's label, whether it is disabled or
   * busy, what a press does (`action`, its `onClick`), the hint under it, and the status and error sentences.
   * Render these and your markup follows the component's rules (docs/react.md).
   */
  payStep: PayStep;
  closeInstitutionSelection(): void;
  /** Fetches the institutions again after a failed fetch. */
  retry(): void;
  /**
   * The payment whose bank's address went to the shopper's phone (with `extras` and
   * `statusUrl`, on a desktop): draw its `url` as a QR code and follow it with
   * `usePaymentResult({ statusUrl, payment: handoff })`; null otherwise. The session's
   * handoff region (`SessionState.handoff`), as `<ServicePay>` renders it.
   */
  handoff: Handoff | null;
  /** During a handoff: opens the bank's page on this computer instead (`openUrl`). */
  continueHere(): void;
}

type Action = keyof ServicePayHandle | 'closeInstitutionSelection' | 'retry' | 'continueHere';

/** The session's methods need no `this`, so they are handed out as they are. */
function pick<K extends Action>(session: PaymentSession, ...keys: K[]): Pick<PaymentSession, K> {
  return Object.fromEntries(keys.map((key) => [key, session[key]])) as Pick<PaymentSession, K>;
}

/**
 * The handle's methods, listed once: `<ServicePay>`'s ref, `useServicePayment` and
 * `window.Service` (servicepay/vanilla) hand out these, the session's own. The return type
 * makes the list complete: a method of ServicePayHandle missing here does not compile.
 */
export const handleOf = (session: PaymentSession): ServicePayHandle =>
  pick(session, 'createPayment', 'toggleButton', 'payWithInstitution', 'openInstitutionSelection');

/** Internal: a session made elsewhere (servicepay/vanilla's). */
export type SessionProp = MadeElsewhere<'session', PaymentSession>;

/**
 * The session behind `options` and the state to render, for `<ServicePay>` and
 * `useServicePayment`: a thin binding, as TanStack Query's observer hooks are. The session
 * owns the behaviour (the `payment` option compared by value, `disablePayButton` changes, the
 * optimistic amount before the options are applied); this hook hands it the options after
 * each render and subscribes to its state.
 */
export function useSession(
  options: UseServicePaymentOptions & SessionProp,
): [PaymentSession, SessionState] {
  // Only these define the session; callbacks and flags are read at call time, so new inline
  // functions or option objects neither refetch nor re-create it.
  const given = options.session;
  const [session, state] = useController(
    options,
    given ?? `${options.environment}|${options.applicationId}|${options.baseUrl ?? ''}`,
    () => given ?? createPaymentSession(options),
  );
  return [session, session.optimisticState(options, state)];
}

/**
 * The payment engine, headless: everything `<ServicePay>` does, for merchants who draw their
 * own UI.
 */
export function useServicePayment(options: UseServicePaymentOptions): ServicePaymentApi {
  const { extras, messages, locale } = options;
  // With `extras` and `statusUrl`, a desktop hands the bank's address to the shopper's phone:
  // the session's handoff region (`handoff`), which the merchant draws as <ServicePay> does.
  const [session, state] = useSession(extras ? extras.options(options) : options);
  return useMemo(() => {
    const words = resolveMessages(messages, locale);
    const lang = languageOf(locale, 'pay');
    return {
      ...state,
      lang,
      text: shopperText(state, words),
      payStep: payStep(state, words, session, lang),
      ...handleOf(session),
      ...pick(session, 'closeInstitutionSelection', 'retry', 'continueHere'),
    };
  }, [state, session, messages, locale]);
}
