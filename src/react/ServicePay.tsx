'use client';
import {
  forwardRef,
  useEffect,
  useId,
  useImperativeHandle,
  useInsertionEffect,
  useRef,
  useState,
} from 'react';
import type { ForwardRefExoticComponent, RefAttributes } from 'react';
import { injectStylesheet } from './styles';
import { pick, useSession } from './useServicePayment';
import type { ServicePayHandle, SessionProp, UseServicePaymentOptions } from './useServicePayment';

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

/** Above this many banks a search field is shown (docs/design.md). */
export const SEARCH_THRESHOLD = 8;

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

const initials = (name: string) =>
  name
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word.charAt(0))
    .join('')
    .toUpperCase();

/** Arrow keys move between tiles (docs/design.md); Tab still walks them in order. */
const STEPS: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/**
 * The component with the internal `session` prop, for `servicepay/vanilla` only: its class
 * renders this very component around the session it drives (one implementation, two front
 * doors). The package's React entry exports it as `ServicePay`, typed without that prop.
 */
export const ServicePayWithSession = forwardRef<ServicePayHandle, ServicePayProps & SessionProp>(
  function ServicePay(props, ref) {
    const {
      title = DEFAULT_TITLE,
      label = DEFAULT_LABEL,
      payLabel = DEFAULT_PAY_LABEL,
      disableVolumeStyling: plain,
      disableTailwindStyling: noUtilities,
      disabledReason = 'Payment is not available yet.',
      className,
      nonce,
    } = props;
    const [session, state] = useSession(props);
    const { status, payButtonEnabled: enabled, prepared, selectedInstitution: chosen } = state;
    const id = (props.idPrefix ?? '') + useId();
    const payButton = useRef<HTMLButtonElement>(null);
    const list = useRef<HTMLDivElement>(null);
    const [query, setQuery] = useState('');

    useImperativeHandle(
      ref,
      () =>
        pick(
          session,
          'createPayment',
          'toggleButton',
          'payWithInstitution',
          'openInstitutionSelection',
        ),
      [session],
    );

    // Before the markup's first paint (an insertion effect runs before layout effects and
    // paint), so the component never shows unstyled; never on the server.
    useInsertionEffect(() => {
      if (!plain) injectStylesheet('service', nonce);
      if (!noUtilities) injectStylesheet('tailwind', nonce);
    }, [plain, noUtilities, nonce]);

    const cx = (service: string, utility?: string) =>
      [plain ? '' : service, utility].filter(Boolean).join(' ') || undefined;

    const { institutions } = state;
    const open = state.listState !== 'closed';
    const shown = open && status !== 'error';
    const loading = status === 'loading';
    const initiating = status === 'initiating';
    const choosable = enabled && !initiating;
    const searchable = institutions.length > SEARCH_THRESHOLD;
    const q = fold(query.trim());
    const matches = q ? institutions.filter((i) => fold(i.name).includes(q)) : institutions;
    const grid = cx('service-grid', 'grid grid-cols-3 gap-2');
    const listId = id + 'list';
    const hintId = id + 'hint';

    // A search starts afresh each time the list is shown.
    if (!shown && query) setQuery('');

    // Focus goes into the list once its banks are shown (when it opens, or when they arrive).
    // After a failed payment the list stays and focus stays on the chosen tile.
    useEffect(() => {
      if (shown && !loading) {
        list.current?.querySelector<HTMLElement>(searchable ? 'input' : 'button')?.focus();
      }
    }, [shown, loading, searchable]);

    // The list closes once the bank's page is opened; when that page opened elsewhere (a new
    // tab, a WebView) the shopper is still here, so focus must not be left on nothing.
    useEffect(() => {
      if (status === 'awaiting-authorisation' && document.activeElement === document.body) {
        payButton.current?.focus();
      }
    }, [status]);

    return (
      <div
        className={[cx('service-root', 'flex flex-col gap-3'), className].join(' ').trim()}
        data-state={status}
        role="group"
        aria-labelledby={id}
        onKeyDown={(event) => {
          // Escape closes the list and gives focus back to Pay.
          if (event.key !== 'Escape' || !open) return;
          event.preventDefault();
          session.closeInstitutionSelection();
          payButton.current?.focus();
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
          disabled={!enabled}
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-describedby={enabled ? undefined : hintId}
          onClick={open ? session.closeInstitutionSelection : session.openInstitutionSelection}
        >
          {payLabel}
          {prepared?.amount.toLocaleString('en-GB', {
            minimumFractionDigits: 2,
            maximumFractionDigits: 2,
          })}
        </button>
        {!enabled && (
          <p id={hintId} className={cx('service-hint')}>
            {disabledReason}
          </p>
        )}
        <p className={cx('service-status')} role="status">
          {status === 'loading' && open
            ? 'Loading banks…'
            : initiating
              ? `Redirecting you to ${chosen?.name ?? 'your bank'}…`
              : status === 'awaiting-authorisation'
                ? "Continue in your bank's page or app."
                : ''}
        </p>
        <p className={cx('service-error')} role="alert">
          {state.error?.error}
        </p>
        {status === 'error' && (
          <button type="button" className={cx('service-retry')} onClick={session.retry}>
            Retry
          </button>
        )}
        {shown && (
          // The bank tiles: a disclosure under the Pay button, not a modal.
          <div
            id={listId}
            ref={list}
            className={cx('service-list', 'flex flex-col gap-2')}
            aria-busy={loading}
          >
            {loading ? (
              <ul className={grid} aria-hidden="true">
                {[0, 1, 2, 3, 4, 5].map((n) => (
                  <li key={n} className={cx('service-skeleton')} />
                ))}
              </ul>
            ) : (
              <>
                {searchable && (
                  <input
                    type="search"
                    className={cx('service-search', 'w-full')}
                    aria-label="Search for your bank"
                    placeholder="Search for your bank"
                    value={query}
                    onChange={(event) => setQuery(event.target.value)}
                  />
                )}
                <ul
                  className={grid}
                  aria-label="Banks"
                  onKeyDown={(event) => {
                    const tiles = Array.from(event.currentTarget.querySelectorAll('button'));
                    // Any other key steps by NaN, to no tile.
                    const at = tiles.indexOf(document.activeElement as HTMLButtonElement);
                    const next = tiles[at + (STEPS[event.key] ?? NaN)];
                    if (next) {
                      event.preventDefault();
                      next.focus();
                    }
                  }}
                >
                  {matches.map((institution, index) => (
                    <li key={institution.id}>
                      <button
                        type="button"
                        className={cx('service-tile', 'flex flex-col items-center gap-1 w-full')}
                        aria-labelledby={listId + index}
                        // aria-disabled, not disabled: the chosen tile keeps focus while it works.
                        aria-disabled={!choosable || undefined}
                        data-state={
                          initiating && institution.id === chosen?.id ? 'initiating' : undefined
                        }
                        onClick={() => choosable && void session.payWithInstitution(institution.id)}
                      >
                        {institution.iconUrl ? (
                          <img
                            className={cx('service-icon')}
                            src={institution.iconUrl}
                            alt={`${institution.name} logo`}
                            width={40}
                            height={40}
                          />
                        ) : (
                          // The initials are drawn by CSS (attr()), not text: the tile's visible
                          // text then matches its accessible name, the bank's name (WCAG 2.5.3).
                          <span
                            className={cx('service-initials')}
                            aria-hidden="true"
                            data-initials={initials(institution.name)}
                          />
                        )}
                        <span id={listId + index}>{institution.name}</span>
                      </button>
                    </li>
                  ))}
                </ul>
                {!matches.length && (
                  <p className={cx('service-hint')} role="status">
                    {institutions.length
                      ? `No bank matches “${query}”.`
                      : 'No banks are available.'}
                  </p>
                )}
              </>
            )}
          </div>
        )}
      </div>
    );
  },
);

/** The pay-by-bank component: title, label, Pay button and the bank list. */
export const ServicePay: ForwardRefExoticComponent<
  ServicePayProps & RefAttributes<ServicePayHandle>
> = ServicePayWithSession;
