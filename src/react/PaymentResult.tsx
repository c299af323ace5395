'use client';
import { useEffect, useId, useInsertionEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { formatNumber, languageOf, resolveResultMessages, resultText } from '../core/index';
import resultCss from '../styles/result.css?raw';
import themeCss from '../styles/theme.css?raw';
import { ResultIcon } from './ResultIcon';
import { injectStylesheet } from './styles';
import { useResultController } from './usePaymentResult';
import { useQuietSwitch } from './useQuietSwitch';
import type { ResultControllerProp, UsePaymentResultOptions } from './usePaymentResult';

/** The options of the rendered result, shared with `ServiceResult` (no React type in them). */
export interface PaymentResultViewOptions extends UsePaymentResultOptions {
  /**
   * The level of the state's heading: 1 when the result is the page's main content.
   * @default 2
   */
  headingLevel?: 1 | 2 | 3 | 4 | 5 | 6;
  /** No stylesheet and no `service-*` class names: the page styles the markup. @default false */
  disableVolumeStyling?: boolean;
  /** Extra class names for the root element. */
  className?: string;
  /** CSP nonce for the injected `<style>` element. */
  nonce?: string;
  /**
   * The shop's own contact or next step, shown as text under the words of a payment that
   * needs checking (`needs-review`: the bank reported it, but it does not match its order)
   * and of one not heard of (`not-heard`), e.g. 'Questions? Call us on 020 7946 0000, 9am to
   * 5pm.'. Nothing is shown without it.
   */
  reviewContact?: string;
  /**
   * How the shop will tell the shopper the outcome once they have closed the page, shown as
   * text while the bank is still confirming (`still-confirming`) and after (`not-heard`), e.g.
   * 'We’ll email you at j•••@example.com as soon as your bank confirms.'. Nothing is shown
   * without it.
   */
  pendingNotice?: string;
}

export interface PaymentResultProps extends PaymentResultViewOptions {
  /** Shown under the state's words in every state: an order summary, a link back to the shop. */
  children?: ReactNode;
}

/**
 * The result page: what became of the payment the shopper just authorised, as the shop's own
 * status endpoint tells it (never as the return address claims). One heading per state, which
 * takes focus when the state changes; the sentence under it is a polite live region. It uses
 * only hooks and DOM props that mean the same in React and Preact's core (ServiceResult
 * renders it with Preact).
 */
export function PaymentResult(props: PaymentResultProps & ResultControllerProp) {
  const { disableVolumeStyling: plain, className, nonce, headingLevel = 2 } = props;
  // Text only, and only a string: plain-JS pages pass anything.
  const contact = typeof props.reviewContact == 'string' && props.reviewContact;
  const notice = typeof props.pendingNotice == 'string' && props.pendingNotice;
  const [controller, { state, paid }] = useResultController(props);
  const messages = resolveResultMessages(props.messages, props.locale);
  const lang = languageOf(props.locale, 'result');
  const quiet = useQuietSwitch(lang);
  const { heading, text } = resultText(state, messages);
  const id = (props.idPrefix ?? '') + useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shown = useRef(state);

  useInsertionEffect(() => {
    if (!plain) injectStylesheet('result', themeCss + resultCss, nonce);
  }, [plain, nonce]);

  // A new state is announced by moving focus to its heading (read out, and next to its
  // action); the first is the page's own start, announced by the page load.
  useEffect(() => {
    if (shown.current !== state) headingRef.current?.focus();
    shown.current = state;
  }, [state]);

  const cx = (name: string) => (plain ? undefined : `service-result-${name}`);
  const Heading = `h${headingLevel}` as 'h2';
  const action =
    state === 'not-completed' && props.onTryAgain
      ? { label: messages.tryAgain, run: controller.tryAgain }
      : state === 'not-heard'
        ? { label: messages.checkAgain, run: controller.checkAgain }
        : null;

  return (
    <section
      className={[plain ? '' : 'service-result', className].join(' ').trim() || undefined}
      data-state={state}
      lang={lang}
      aria-labelledby={id}
    >
      <ResultIcon state={state} className={cx('icon')} />
      <Heading id={id} ref={headingRef} className={cx('heading')} tabIndex={-1}>
        {heading}
      </Heading>
      <p className={cx('text')} role="status" aria-live={quiet}>
        {text}
      </p>
      {paid && (
        // What was paid, as the shop's status endpoint says (received and needs-review only,
        // and at least one of the three): each term beside its value, the values as text.
        // GBP is the one currency (spec 2.4), written £ as the Pay button writes it.
        <dl className={cx('paid')}>
          {[
            [messages.paidAmount, paid.amount && '£' + formatNumber(lang, paid.amount, true)],
            [messages.paidTo, paid.payee],
            [messages.paidReference, paid.reference],
          ].map(
            ([term, value], index) =>
              value && (
                <div key={index}>
                  <dt>{term}</dt>
                  <dd>{value}</dd>
                </div>
              ),
          )}
        </dl>
      )}
      {(state === 'still-confirming' || state === 'not-heard') && notice && (
        <p className={cx('notice')}>{notice}</p>
      )}
      {(state === 'needs-review' || state === 'not-heard') && contact && (
        <p className={cx('contact')}>{contact}</p>
      )}
      {action && (
        <div className={cx('actions')}>
          <button type="button" className={cx('action')} onClick={action.run}>
            {action.label}
          </button>
        </div>
      )}
      {props.children}
    </section>
  );
}
