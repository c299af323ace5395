// Preact-only code: the class renders with Preact's own `render`, not react-dom's API.
import { createElement } from 'preact';
import { createPaymentSession } from '../core/index';
import type { Catalogue, PaymentArgs } from '../core/index';
import { ServicePayView } from '../react/ServicePayView';
import type { ServicePayProps } from '../react/ServicePayView';
import type { ServicePayExtras } from '../react/extras-contract';
import { handleOf } from '../react/useServicePayment';
import type { ServicePayHandle } from '../react/useServicePayment';
import { copyOptions, createHost } from './host';
import { loadExtras } from './load-extras';
import { PAY_WORDS, localeOption } from './locales';
import type { ShippedLocale } from './locales';
import { scriptBackend } from './script-backend';

/**
 * Options of `new Service(options)`: those of spec 2.2 (`environment`, `applicationId`,
 * `disableVolumeStyling`, `disablePayButton`, `isWebView`, `eventConsumer`, ...), plus the
 * additions of the React component: `baseUrl`, `transport`, `openUrl`,
 * `generateMerchantPaymentId`, `onPaymentInitiated`, `disabledReason`, `className`, `nonce`.
 * They are read once, by the constructor.
 */
export interface ServiceOptions extends Omit<
  ServicePayProps,
  'payment' | 'nonce' | 'extras' | 'locale'
> {
  /**
   * The shopper's language: `'cy'` (Welsh) or `'en'` (English), which this script carries, or a
   * catalogue object for another (docs/languages.md). Every word is in it, marked with its
   * `lang`. Read once, as the other options.
   * @default 'en'
   */
  locale?: ShippedLocale | Catalogue;
  /**
   * CSP nonce for the component's injected `<style>` elements.
   * @default in the standalone script, the `nonce` of its own `<script>` element
   */
  nonce?: string;
}

/** Numbers the instances, whose element ids must differ (see SessionProp.idPrefix). */
let instances = 0;

/**
 * The component for plain pages (spec 4.4): `new Service(options)`, then `createPayment`,
 * `injectComponent` and the other operations, from page script.
 *
 * It is the React component's session and markup, not a copy: the class holds a core payment
 * session and renders `<ServicePay>` around it, so events, errors, markup and styling are
 * those of the React component. Nothing is thrown into the page, except by `injectComponent`
 * for an element id that the page does not have.
 */
export class Service implements ServicePayHandle {
  /** Validates and prepares the next payment (spec 2.3). Returns whether it was valid. */
  declare readonly createPayment: (args: PaymentArgs) => boolean;
  /**
   * Renders the component into the page element with this id, replacing its content; called
   * again, it moves the component there (its state stays, `mounted` is not emitted again).
   * @throws ServiceInjectionError when no element has this id, or more than one has (that one
   * is reported to `errorConsumer` too, at `fetchInstitutions`).
   */
  declare readonly injectComponent: (elementId: string) => void;
  /** Enables (true) or disables (false) the Pay button; emits `pay_button_enabled` / `_disabled`. */
  declare readonly toggleButton: (enabled: boolean) => void;
  /**
   * Starts the payment at an institution, as a click on its icon does (spec 4.4 rule 1).
   * Needs `createPayment` and `injectComponent` first. Never rejects: errors go to `errorConsumer`.
   */
  declare readonly payWithInstitution: (institutionId: string) => Promise<void>;
  /** Opens the bank list; called before the banks arrive, it opens when they do. */
  declare readonly openInstitutionSelection: () => void;
  /**
   * The merchantPaymentId the next payment will use: renewed on every `payment_initiated`
   * (spec 4.4 rule 4). `onPaymentInitiated` receives the id each payment used.
   */
  declare readonly merchantPaymentId: string;
  /**
   * Takes the component out of the page and ends its work: backend calls in flight are
   * aborted (their connections closed) and nothing is opened or reported for them. A later
   * `injectComponent` shows it again.
   */
  declare readonly destroy: () => void;

  constructor(options: ServiceOptions) {
    // Copied once. Not an object (or one whose getters throw): validated as an empty one, so
    // the error names the first missing option.
    const props = copyOptions<ServiceOptions>(options);
    // A script served by a sandbox talks to that sandbox (./script-backend).
    if (props.environment == 'SANDBOX') props.baseUrl ??= scriptBackend;
    // The session validates the options and reports a problem to errorConsumer once
    // injected, as <ServicePay> does at mount; the constructor never throws. Created by page
    // script, not while rendering, so `generateMerchantPaymentId` runs now: `merchantPaymentId`
    // is the one the first payment will use even before injectComponent.
    const session = createPaymentSession(props, { generateFirstIdNow: true });
    const idPrefix = `sp${++instances}-`;
    const host = createHost();
    let unmount: (() => void) | undefined;

    // The methods are the session's own (they need no `this`): `button.onclick =
    // service.openInstitutionSelection` works. Before injectComponent the session is not
    // mounted: payWithInstitution reports that and sends nothing. The component's ref handle.
    Object.assign(this, handleOf(session));
    Object.defineProperty(this, 'merchantPaymentId', {
      enumerable: true,
      get: () => session.getState().merchantPaymentId,
    });

    let extras: ServicePayExtras | undefined;
    // The page's language, by name or as a catalogue: the words this script draws (./locales).
    const locale = localeOption(props.locale, PAY_WORDS) as Catalogue | undefined;
    const view = () =>
      createElement(ServicePayView, { ...props, locale, extras, session, idPrefix });
    // The opt-in extras (the handoff, the remembered and featured banks) are loaded when the
    // options ask for them (a chunk, or in the standalone script a second file beside it),
    // then drawn where the component is, keeping its state. Without them it works as before.
    if (props.statusUrl || props.rememberBank || props.featuredInstitutions) {
      loadExtras().then(
        (loaded) => {
          extras = loaded;
          host.update(view());
        },
        () => {},
      );
    }

    this.injectComponent = (elementId) => {
      // An id more than one element carries is reported where errors go, and thrown.
      const first = host.inject(elementId, view(), (error) =>
        props.errorConsumer?.({ location: 'fetchInstitutions', error }),
      );
      // Mounted here, synchronously and for the life of the page, rather than in the
      // component's effect (which runs after paint): `mounted` follows the markup into the
      // page, and a payWithInstitution right after injectComponent already works. A second
      // injection moves the markup; the session, its banks and its payment stay.
      if (first) unmount = session.mount();
    };

    this.destroy = () => {
      host.remove();
      unmount?.();
      unmount = undefined;
    };
  }
}
