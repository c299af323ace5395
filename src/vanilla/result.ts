// Preact-only code: the class renders with Preact's own `render`, not react-dom's API.
import { createElement } from 'preact';
import type { ComponentType } from 'preact';
import { createPaymentResult } from '../core/index';
import type { Catalogue, PaymentIds, PaymentResultState } from '../core/index';
import { PaymentResult } from '../react/PaymentResult';
import type { PaymentResultViewOptions } from '../react/PaymentResult';
import type { ResultControllerProp } from '../react/usePaymentResult';
import { copyOptions, createHost } from './host';
import { RESULT_WORDS, localeOption } from './locales';
import type { ShippedLocale } from './locales';

/**
 * Options of `new ServiceResult(options)`: those of `<PaymentResult>` (`statusUrl`,
 * `onResult`, `onTryAgain`, `reviewContact`, `pendingNotice`, `messages`, `notHeardAfterMs`,
 * `stopListeningAfterMs`, `headingLevel`, ...), read once.
 */
export interface ServiceResultOptions extends Omit<PaymentResultViewOptions, 'locale'> {
  /**
   * The shopper's language: `'cy'` (Welsh) or `'en'` (English), which this script carries, or a
   * catalogue object for another (docs/languages.md). Read once.
   * @default 'en'
   */
  locale?: ShippedLocale | Catalogue;
  /**
   * CSP nonce for the injected `<style>` element.
   * @default in the standalone script, the `nonce` of its own `<script>` element
   */
  nonce?: string;
}

/** The view without `children` (React's children type is not Preact's; none are passed). */
const View = PaymentResult as unknown as ComponentType<
  PaymentResultViewOptions & ResultControllerProp
>;

/** Numbers the instances, whose element ids must differ (Preact's useId restarts per root). */
let instances = 0;

/**
 * The result page for plain pages: `new ServiceResult({ statusUrl })`, then
 * `injectComponent(elementId)`. The same controller and markup as React's `<PaymentResult>`,
 * rendered with Preact. The ids are found and the endpoint asked once it is injected.
 */
export class ServiceResult {
  /**
   * Renders the result into the page element with this id, replacing its content; called
   * again, it moves there (the state stays).
   * @throws ServiceInjectionError when no element has this id, or more than one has.
   */
  declare readonly injectComponent: (elementId: string) => void;
  /** After `not-heard`: listens again, from the start, for another bounded while. */
  declare readonly checkAgain: () => void;
  /**
   * The state shown: `waiting`, `still-confirming`, `received`, `not-completed`,
   * `needs-review`, `not-heard` or `not-found`.
   */
  declare readonly state: PaymentResultState;
  /** The payment followed, once found; null before and when it is not. */
  declare readonly payment: PaymentIds | null;
  /** Takes the result out of the page and stops asking; a later injectComponent resumes. */
  declare readonly destroy: () => void;

  /** @throws TypeError when `statusUrl` is missing or malformed. */
  constructor(options: ServiceResultOptions) {
    // Not an object (or one whose getters throw): refused below as a missing statusUrl.
    const props = copyOptions<ServiceResultOptions>(options);
    const controller = createPaymentResult(props);
    // The page's language, by name or as a catalogue: the result page's words (./locales).
    const locale = localeOption(props.locale, RESULT_WORDS) as Catalogue | undefined;
    const idPrefix = `spr${++instances}-`;
    const host = createHost();

    this.checkAgain = controller.checkAgain;
    Object.defineProperties(this, {
      state: { enumerable: true, get: () => controller.getState().state },
      payment: { enumerable: true, get: () => controller.getState().payment },
    });

    this.injectComponent = (elementId) => {
      host.inject(elementId, createElement(View, { ...props, locale, controller, idPrefix }));
    };

    this.destroy = host.remove;
  }
}
