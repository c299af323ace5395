'use client';
import {
  forwardRef,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import type { ForwardRefExoticComponent, RefAttributes } from 'react';
import { languageOf, payButtonText, resolveHostedMessages } from '../core/index';
import type { Catalogue, ServiceDisplayProps, SessionOptions } from '../core/index';
import { paymentKey } from '../core/payment-key';
import { createLink } from './link';
import type { HostedServicePayHandle, LinkCallbacks } from './link';
import type { ServiceOptions } from './types';
import { ownOptions } from './load-service';
import { watchServiceStyles } from './style-csp';
import { useServiceScript } from './useServiceScript';

/**
 * The props of `servicepay/hosted`'s `<ServicePay>`: those of the root `<ServicePay>` that the
 * service's own component has (spec 2.2), plus where its script is. Props only the
 * reimplemented component can honour (`transport`, `baseUrl`, `openUrl`, `messages`,
 * `extras`, …) are not accepted.
 */
export interface HostedServicePayProps
  extends
    Pick<
      SessionOptions,
      | 'environment'
      | 'applicationId'
      | 'payment'
      | 'disablePayButton'
      | 'isWebView'
      | 'agentType'
      | 'eventConsumer'
      | 'errorConsumer'
      | 'generateMerchantPaymentId'
    >,
    ServiceDisplayProps,
    LinkCallbacks {
  /**
   * The versioned address of the service's script, `{script_host}/Service-<version>.min.js`,
   * from the service's onboarding (spec 4.3). No default.
   */
  scriptSrc: string;
  /**
   * Subresource Integrity of the script (`sha384-…`); sets `crossorigin="anonymous"`. Part of
   * what identifies the page's one load of the address: give every load the same.
   */
  integrity?: string;
  /** The page's CSP nonce for the script element (used by the load that inserts it). */
  nonce?: string;
  /**
   * The global the script defines its constructor under: an identifier the browser's window
   * does not already have. @default 'Service'
   */
  globalName?: string;
  /** Called with the merchantPaymentId each payment used, right after `payment_initiated`. */
  onPaymentInitiated?: (details: { merchantPaymentId: string }) => void;
  /**
   * The language of this wrapper's own words, a catalogue (`import cy from
   * 'servicepay/locales/cy'`): the placeholder while the service's script loads and the
   * sentence if it cannot, marked with its `lang`. The service's component keeps its own words:
   * `title`, `label` and `payLabel` change those (docs/going-live.md).
   * @default English (servicepay/locales/en)
   */
  locale?: Catalogue;
}

/** A layout effect in the browser (no effect runs on a server, and React 18 warns of this one there). */
const useBrowserLayoutEffect = typeof document == 'undefined' ? useEffect : useLayoutEffect;

/**
 * `<ServicePay>` on the service's own script (spec 4.3, 4.4): loads it once per page, creates
 * the service's component in its own element and keeps exactly one there.
 */
export const ServicePay: ForwardRefExoticComponent<
  HostedServicePayProps & RefAttributes<HostedServicePayHandle>
> = forwardRef<HostedServicePayHandle, HostedServicePayProps>(function ServicePay(given, ref) {
  // Only the props given: none inherited from a polluted Object.prototype. (Given a ref, React
  // has copied the props with for…in, inherited ones included: those are checked as given.)
  const props = ownOptions(given);
  const { scriptSrc, integrity, nonce, globalName, payment, disablePayButton } = props;
  const { environment, applicationId, isWebView, agentType } = props;
  const { disableVolumeStyling, disableTailwindStyling, className } = props;
  const { title, label, payLabel } = props;
  const { status, Service, error, retry } = useServiceScript(scriptSrc, {
    integrity,
    nonce,
    globalName,
  });
  // The service's element: its id is the link's, set in the effect below (./link).
  const element = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  const [link] = useState(() => createLink(() => latest.current));
  useImperativeHandle(ref, () => link.handle, [link]);
  // The newest props for the callbacks, before the effects below use them.
  useEffect(() => {
    latest.current = props;
  });

  // A payment of the same content, in a new object, is not sent again (core's rule).
  const key = paymentKey(payment);
  useEffect(() => {
    const { payment } = latest.current;
    if (payment) link.handle.createPayment(payment);
  }, [link, key]);
  useEffect(() => link.disable(disablePayButton), [link, disablePayButton]);
  // The options of new Service (spec 2.2), as a value: a change of any makes a fresh instance.
  const options = JSON.stringify({
    environment,
    applicationId,
    title,
    label,
    payLabel,
    isWebView,
    agentType,
    disableVolumeStyling,
    disableTailwindStyling,
  });
  // Before paint: the placeholder gives way to the injected component in one frame.
  useBrowserLayoutEffect(
    () =>
      Service
        ? link.attach(Service, element.current!, JSON.parse(options) as ServiceOptions)
        : undefined,
    [link, Service, options],
  );
  // In development: the page's CSP blocking the service component's styles, told once.
  useEffect(() => watchServiceStyles(scriptSrc, () => latest.current.errorConsumer), [scriptSrc]);
  useEffect(() => {
    if (!error) return;
    link.drop();
    latest.current.errorConsumer?.({ location: 'fetchInstitutions', error: error.message });
  }, [link, error]);

  const amount = payment?.amount;
  // The placeholder holds the place of the service's Pay step (its title, label and Pay label,
  // as the props give them), in the catalogue's words: English's are spec 2.2's defaults, which
  // the service's component shows. Only these are marked with the catalogue's `lang`: what the
  // service's component draws is its own.
  const words = resolveHostedMessages(props.locale);
  const lang = languageOf(props.locale, 'hosted');
  return (
    <div className={className} data-servicepay-hosted={status}>
      {status == 'loading' && (
        <div className="servicepay-placeholder" aria-busy="true" lang={lang}>
          <p>{title ?? words.title}</p>
          <p>{label ?? words.label}</p>
          <button type="button" disabled>
            {payButtonText(
              payLabel ?? words.payLabel,
              typeof amount == 'number' ? amount : undefined,
              lang,
            )}
          </button>
        </div>
      )}
      {status == 'error' && (
        <div className="servicepay-placeholder" lang={lang}>
          <p role="alert">{words.loadFailed}</p>
          <button type="button" onClick={retry}>
            {words.retry}
          </button>
        </div>
      )}
      <div ref={element} />
    </div>
  );
});
