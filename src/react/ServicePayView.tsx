'use client';
import { useEffect, useId, useImperativeHandle, useInsertionEffect, useRef } from 'react';
import type { Ref } from 'react';
import type { ServiceDisplayProps } from '../core/index';
import { languageOf, payStep, resolveMessages } from '../core/index';
import { BankList } from './BankList';
import serviceCss from '../styles/service.css?raw';
import themeCss from '../styles/theme.css?raw';
import tailwindCss from '../styles/tailwind.css?raw';
import { cspWatch, injectStylesheet } from './styles';
import { useQuietSwitch } from './useQuietSwitch';
import { handleOf, useSession } from './useServicePayment';
import type { ServicePayHandle, SessionProp, UseServicePaymentOptions } from './useServicePayment';
import type { ServicePayExtrasProps } from './extras-contract';

export type { ServicePayExtras } from './extras-contract';

export interface ServicePayProps
  extends UseServicePaymentOptions, ServiceDisplayProps, ServicePayExtrasProps {
  /**
   * Shown under the Pay button while the merchant has it disabled (`messages.payUnavailable`).
   * @default 'Payment is not available yet.'
   */
  disabledReason?: string;
  /** CSP nonce for the injected `<style>` elements. */
  nonce?: string;
}

/**
 * Internal: what `servicepay/vanilla` renders besides the options. `handle` receives the ref
 * handle: an ordinary prop, not React's `ref`, so the component needs no `forwardRef` (which
 * Preact's core does not have: the Preact builds compile this module, never ./ServicePay).
 */
export interface ViewProps extends ServicePayProps, SessionProp {
  handle?: Ref<ServicePayHandle>;
}

/**
 * The component's markup and behaviour, as a plain function component. The React entry wraps
 * it in `forwardRef` (./ServicePay); `servicepay/vanilla` renders it with Preact around the
 * session its class drives (one implementation, two front doors). It uses only the hooks and
 * DOM props that mean the same in React and in Preact's core (see ./BankList), so neither
 * build translates anything.
 */
export function ServicePayView(props: ViewProps) {
  const {
    disableVolumeStyling: plain,
    disableTailwindStyling: noUtilities,
    className,
    nonce,
    // The opt-in extras (the handoff panel, the remembered and featured banks:
    // servicepay/extras) are handed in, never imported here, so that a page without them does
    // not carry them. They see the session's options (the handoff takes over opening the bank
    // on a desktop) and render in two places.
    extras,
  } = props;
  const id = (props.idPrefix ?? '') + useId();
  const [session, state] = useSession(extras ? extras.options(props) : props);
  // The catalogue's words (English without one), the merchant's `messages` on top, then the
  // props that name a word. `lang` marks them (WCAG 3.1.2) and writes the amount.
  const messages = resolveMessages(props.messages, props.locale);
  const lang = languageOf(props.locale, 'pay');
  const quiet = useQuietSwitch(lang);
  if (typeof props.disabledReason == 'string') messages.payUnavailable = props.disabledReason;
  if (typeof props.payLabel == 'string') messages.payLabel = props.payLabel;
  const { title = messages.title, label = messages.label } = props;
  const { status, selectedInstitution: chosen, institutions } = state;
  const pay = payStep(state, messages, session, lang);
  const payButton = useRef<HTMLButtonElement>(null);
  const step = useRef<HTMLElement>(null);
  const stepHeading = useRef<HTMLHeadingElement>(null);

  useImperativeHandle(props.handle, () => handleOf(session), [session]);

  // Before the markup's first paint (an insertion effect runs before layout effects and
  // paint), so the component never shows unstyled; never on the server.
  useInsertionEffect(() => {
    // The merchant's callback of this render: the sheet is refused, if at all, moments later.
    const watch = cspWatch(props.errorConsumer);
    if (!plain) injectStylesheet('service', themeCss + serviceCss, nonce, watch);
    if (!noUtilities) injectStylesheet('tailwind', tailwindCss, nonce, watch);
  }, [plain, noUtilities, nonce]);

  // `className`, undefined when there is no class: React leaves the attribute out, and so does
  // Preact's core, which sets the `className` property (it would write class="" only if a
  // defined value became undefined; `plain` never changes in a `Service`, whose options are
  // read once).
  const cx = (service: string, ...utility: (string | undefined)[]) =>
    [plain ? '' : service, ...utility].filter(Boolean).join(' ') || undefined;

  const open = pay.expanded;
  const shown = open && status !== 'error';
  const loading = status === 'loading';
  const initiating = pay.busy;
  const hint = pay.hint;
  const listId = id + 'list';
  const hintId = id + 'hint';
  const headingId = id + 'step';

  // Focus goes into the step once its banks are shown (when it opens, or when they arrive):
  // the search field or the bank with the Tab stop; on touch screens the step's heading, as
  // a text field would raise the on-screen keyboard over the list. After a failed payment
  // the step stays and focus stays on the chosen bank.
  useEffect(() => {
    if (!shown || loading) return;
    const coarse = window.matchMedia?.('(pointer: coarse)').matches;
    (coarse
      ? stepHeading.current
      : step.current?.querySelector<HTMLElement>('input,ul [tabindex="0"]')
    )?.focus();
  }, [shown, loading]);

  // The step closes once the bank's page is opened; when that page opened elsewhere (a new
  // tab, a WebView) the shopper is still here, so focus must not be left on nothing.
  useEffect(() => {
    if (status === 'awaiting-authorisation' && document.activeElement === document.body) {
      payButton.current?.focus();
    }
  }, [status]);

  // What the extras read: the component's own context, whole (one object, few bytes here),
  // with the bank list they draw their banks with (handed over, not imported by them: a
  // module both imported would move to a chunk of its own, and the root entry would grow).
  // Focus is moved through the refs held here (payButton, stepHeading), never found by a DOM
  // walk.
  const context = {
    session,
    state,
    props,
    messages,
    lang,
    quiet,
    cx,
    id,
    BankList,
    payButton,
    stepHeading,
  };

  const close = () => {
    session.closeInstitutionSelection();
    payButton.current?.focus();
  };

  return (
    <div
      className={cx('service-root', 'flex flex-col gap-3', className)}
      data-state={status}
      lang={lang}
      role="group"
      aria-labelledby={id}
      onKeyDown={(event) => {
        // Escape closes the step and gives focus back to Pay.
        if (event.key !== 'Escape' || !open) return;
        event.preventDefault();
        close();
      }}
    >
      <p id={id} className={cx('service-title')}>
        {title}
      </p>
      <p className={cx('service-label')}>{label}</p>
      <button
        ref={payButton}
        type="button"
        className={cx('service-pay', 'w-full')}
        // No dead button: without a payment it is disabled, and says why underneath.
        disabled={pay.disabled}
        // While a bank's page is being opened it shows progress and does nothing.
        aria-disabled={initiating || undefined}
        aria-expanded={open}
        aria-controls={shown ? listId : undefined}
        aria-describedby={hint ? hintId : undefined}
        onClick={pay.action}
      >
        {pay.label}
      </button>
      {hint && (
        <p id={hintId} className={cx('service-hint')}>
          {hint}
        </p>
      )}
      <p className={cx('service-status')} role="status" aria-live={quiet}>
        {pay.status}
      </p>
      <p className={cx('service-error')} role="alert" aria-live={quiet}>
        {pay.error}
      </p>
      {shown && (
        // The bank step: a disclosure under the Pay button, not a modal.
        <section
          id={listId}
          ref={step}
          className={cx('service-step', 'flex flex-col gap-2')}
          aria-labelledby={headingId}
          aria-busy={loading}
        >
          <div className={cx('service-step-head', 'flex items-center')}>
            <h2 id={headingId} ref={stepHeading} className={cx('service-heading')} tabIndex={-1}>
              {messages.chooseBank}
            </h2>
            <button type="button" className={cx('service-retry service-close')} onClick={close}>
              {messages.close}
            </button>
          </div>
          {extras && <extras.Extras {...context} step />}
          {loading ? (
            <>
              {state.slow && (
                <button type="button" className={cx('service-retry')} onClick={session.retry}>
                  {messages.retry}
                </button>
              )}
              <ul className={cx('service-banks', 'grid gap-2')} aria-hidden="true">
                {[0, 1, 2, 3].map((n) => (
                  <li key={n} className={cx('service-skeleton')} />
                ))}
              </ul>
            </>
          ) : (
            <BankList
              institutions={institutions}
              messages={messages}
              lang={lang}
              quiet={quiet}
              cx={cx}
              choosable={state.payButtonEnabled && !initiating}
              initiatingId={initiating ? chosen?.id : undefined}
              onChoose={(bank) => void session.payWithInstitution(bank)}
            />
          )}
        </section>
      )}
      {extras && <extras.Extras {...context} />}
    </div>
  );
}
