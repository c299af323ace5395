import { forwardRef, useEffect, useId, useImperativeHandle, useRef } from 'react';
import type { KeyboardEvent } from 'react';
import type { SessionStatus } from '../core/index';
import { InstitutionList } from './InstitutionList';
import type { ClassNames } from './InstitutionList';
import { injectStylesheet } from './styles';
import { useServicePayment } from './useServicePayment';
import type { ServicePayHandle, UseServicePaymentOptions } from './useServicePayment';

export const DEFAULT_TITLE = 'Pay with your banking app';
export const DEFAULT_LABEL = 'Pay securely with your banking app';
export const DEFAULT_PAY_LABEL = 'Pay £';

export interface ServicePayProps extends UseServicePaymentOptions {
  /** Title displayed by the component. @default 'Pay with your banking app' */
  title?: string;
  /** Label displayed below the title. @default 'Pay securely with your banking app' */
  label?: string;
  /** Label of the Pay button, followed by the prepared amount. @default 'Pay £' */
  payLabel?: string;
  /**
   * No service stylesheet and no `service-*` class names: the page styles the markup.
   * (The key is spelled exactly so in the spec.)
   * @default false
   */
  disableVolumeStyling?: boolean;
  /**
   * No utility-class stylesheet: the page supplies the (Tailwind) classes.
   * @deprecated since component version 0.5 (spec 9); style through `disableVolumeStyling` and CSS custom properties.
   * @default false
   */
  disableTailwindStyling?: boolean;
  /** Read out and shown while the Pay button is disabled. @default 'Payment is not available yet.' */
  disabledReason?: string;
  /** Extra class names for the root element. */
  className?: string;
  /** CSP nonce for the injected `<style>` elements. */
  nonce?: string;
}

const money = (amount: number) =>
  amount.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The pay-by-bank component: title, label, Pay button and the bank list. */
export const ServicePay = forwardRef<ServicePayHandle, ServicePayProps>(
  function ServicePay(props, ref) {
    const {
      title = DEFAULT_TITLE,
      label = DEFAULT_LABEL,
      payLabel = DEFAULT_PAY_LABEL,
      disableVolumeStyling = false,
      disableTailwindStyling = false,
      disabledReason = 'Payment is not available yet.',
      className,
      nonce,
    } = props;
    const api = useServicePayment(props);
    const { status, payButtonEnabled, prepared, error, selectedInstitution, listState } = api;
    const id = useId();
    const payButton = useRef<HTMLButtonElement>(null);
    const lastStatus = useRef<SessionStatus>(status);

    useImperativeHandle(
      ref,
      () => ({
        createPayment: api.createPayment,
        toggleButton: api.toggleButton,
        payWithInstitution: api.payWithInstitution,
        openInstitutionSelection: api.openInstitutionSelection,
      }),
      [api.createPayment, api.toggleButton, api.payWithInstitution, api.openInstitutionSelection],
    );

    useEffect(() => {
      if (!disableVolumeStyling) injectStylesheet('service', nonce);
      if (!disableTailwindStyling) injectStylesheet('tailwind', nonce);
    }, [disableVolumeStyling, disableTailwindStyling, nonce]);

    const previous = lastStatus.current;
    useEffect(() => {
      lastStatus.current = status;
    }, [status]);
    const focus =
      status !== 'selecting' || previous === 'selecting'
        ? undefined
        : previous === 'initiating'
          ? 'busy'
          : 'first';

    const cx: ClassNames = (service, utility) =>
      [disableVolumeStyling ? '' : service, utility].filter(Boolean).join(' ') || undefined;

    const open = listState !== 'closed';
    const initiating = status === 'initiating';
    const listId = `${id}list`;
    const statusText =
      status === 'loading' && open
        ? 'Loading banks…'
        : initiating
          ? `Redirecting you to ${selectedInstitution?.name ?? 'your bank'}…`
          : status === 'awaiting-authorisation'
            ? "Continue in your bank's page or app."
            : '';

    function close(event: KeyboardEvent) {
      if (event.key !== 'Escape' || !open) return;
      event.preventDefault();
      api.closeInstitutionSelection();
      payButton.current?.focus();
    }

    return (
      <div
        className={[cx('service-root', 'flex flex-col gap-3'), className].filter(Boolean).join(' ')}
        data-state={status}
        role="group"
        aria-labelledby={`${id}title`}
        onKeyDown={close}
      >
        <p id={`${id}title`} className={cx('service-title')}>
          {title}
        </p>
        <p className={cx('service-label')}>{label}</p>
        <button
          ref={payButton}
          type="button"
          className={cx('service-pay', 'w-full')}
          disabled={!payButtonEnabled}
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-describedby={payButtonEnabled ? undefined : `${id}hint`}
          onClick={() => (open ? api.closeInstitutionSelection() : api.openInstitutionSelection())}
        >
          {payLabel}
          {prepared ? money(prepared.amount) : ''}
        </button>
        {!payButtonEnabled && (
          <p id={`${id}hint`} className={cx('service-hint')}>
            {disabledReason}
          </p>
        )}
        <p className={cx('service-status')} role="status">
          {statusText}
        </p>
        <p className={cx('service-error')} role="alert">
          {error?.error}
        </p>
        {status === 'error' && (
          <button type="button" className={cx('service-retry')} onClick={api.retry}>
            Retry
          </button>
        )}
        {open && status !== 'error' && (
          <InstitutionList
            id={listId}
            institutions={api.institutions}
            loading={status === 'loading'}
            busyId={initiating ? selectedInstitution?.id : undefined}
            enabled={payButtonEnabled && !initiating}
            focus={focus}
            onPick={(institutionId) => void api.payWithInstitution(institutionId)}
            cx={cx}
          />
        )}
      </div>
    );
  },
);
