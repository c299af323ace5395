import { formatNumber } from './intl';
import { ENGLISH } from './locales/en/index';
import type { ServiceMessages } from './catalogue';
import type { ShopperText } from './messages';
import type { SessionState } from './state';

/** The session's methods a Pay step calls (a `PaymentSession` has them all). */
export interface PayStepActions {
  openInstitutionSelection(): void;
  closeInstitutionSelection(): void;
  retry(): void;
}

/**
 * The Pay step's rules as data: what its button says and does, and the sentences around it.
 * `<ServicePay>` and `window.Service` render it; `useServicePayment` returns it as `payStep`,
 * so a merchant's own markup follows the same rules without working them out again.
 */
export interface PayStep {
  /** The button's text: `Pay £12.50`, `Pay` before an amount, `Try again`, `Opening Barclays…`. */
  label: string;
  /** The button is disabled; `hint` says why, for `aria-describedby`. */
  disabled: boolean;
  /** A bank's page is being opened: show progress, `aria-disabled`, and do nothing on press. */
  busy: boolean;
  /** The bank step is open (or opens when the banks arrive): `aria-expanded`. */
  expanded: boolean;
  /**
   * What a press does (the button's `onClick`): opens the bank step, closes it, or fetches the
   * banks again after a failed load; undefined when a press does nothing.
   */
  action: (() => void) | undefined;
  /** Under the button: why it is disabled; '' when the shopper can press it. */
  hint: string;
  /** For `role="status"`: loading, slow, opening the bank, continue at the bank; '' when quiet. */
  status: string;
  /** For `role="alert"`: what went wrong and what to do next; '' when nothing did. */
  error: string;
}

/**
 * The Pay button's text: the label, then the amount as `lang` writes it (`Pay £12.50`,
 * `Talu £12.50`); with no amount yet, the label without its trailing £ ("Pay", never a dangling
 * "Pay £"). servicepay/hosted's placeholder writes it so too.
 */
export const payButtonText = (payLabel: string, amount: number | undefined, lang: string) =>
  amount === undefined
    ? payLabel.replace(/\s*£\s*$/, '')
    : // No maximum needed: a prepared amount has at most two decimals (validation.ts).
      payLabel + formatNumber(lang, amount, true);

/**
 * The Pay step for a state. `messages.payLabel` is the label before the amount (`<ServicePay>`'s
 * `payLabel` prop is put there), and `messages.payUnavailable` the hint while the merchant has
 * Pay switched off (its `disabledReason` prop); `lang` is the words' language (`languageOf`),
 * which writes the amount. Pure: `action` is one of `actions`, not called.
 */
export function payStep(
  state: SessionState,
  messages: ServiceMessages,
  actions: PayStepActions,
  lang: string = ENGLISH,
): PayStep {
  const { prepared, status, problem } = state;
  const bank = state.selectedInstitution?.name ?? '';
  const busy = status === 'initiating';
  const expanded = state.listState !== 'closed';
  // The banks failed to load: Pay becomes the retry, whatever else would disable it.
  const failed = problem === 'load-failed';
  const error =
    problem === 'pay-failed' ? messages.payFailed(bank) : failed ? messages.loadFailed : '';
  const said =
    status === 'loading'
      ? state.slow
        ? messages.slow
        : messages.loading
      : busy
        ? messages.opening(bank)
        : status === 'awaiting-authorisation'
          ? messages.awaiting
          : '';
  const hint = failed
    ? ''
    : // The shop's set-up stops payments: said once, under the disabled Pay button.
      problem === 'unavailable'
      ? messages.unavailable
      : state.paymentInvalid
        ? messages.paymentInvalid
        : !prepared
          ? messages.paymentNotReady
          : state.payButtonEnabled
            ? ''
            : messages.payUnavailable;
  const action =
    busy || hint
      ? undefined
      : failed
        ? // With a payment, opening the step fetches again and opens it once the banks arrive.
          prepared
          ? actions.openInstitutionSelection
          : actions.retry
        : expanded
          ? actions.closeInstitutionSelection
          : actions.openInstitutionSelection;
  return {
    label: busy
      ? said
      : failed
        ? messages.retry
        : payButtonText(messages.payLabel, prepared?.amount, lang),
    disabled: !!hint,
    busy,
    expanded,
    action,
    hint,
    status: said,
    error,
  };
}

/**
 * The shopper's words for a state (useServicePayment's `text`): the Pay step's sentences, so
 * that `payHint` is '' after a failed load, when Pay is the retry, as the component shows it.
 */
export function shopperText(state: SessionState, messages: ServiceMessages): ShopperText {
  const step = payStep(state, messages, {} as PayStepActions);
  return { alert: step.error, status: step.status, payHint: step.hint };
}
