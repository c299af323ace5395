/**
 * One mounted hosted `<ServicePay>`'s link to the service's component objects: the calls made
 * before one exists, the payment and the merchantPaymentId of the next one (spec 4.4 rule 4),
 * and the guard that keeps a replaced or unmounted instance's events from every callback.
 * Framework-free: the React component drives it from its effects.
 */
import { nextPaymentId, randomId, warnPaymentId } from '../core/merchant-payment-id';
import { reportThrown } from '../core/console';
import { said } from '../core/protocol';
import type { PaymentArgs, ServiceError, ServiceEventName } from '../core/index';
import { withFix } from './advice';
import type { ServiceConstructor, ServiceInstance, ServiceOptions } from './types';

/** The merchant's callbacks, read when called (new inline functions need no new instance). */
export interface LinkCallbacks {
  eventConsumer?: (event: ServiceEventName) => void;
  errorConsumer?: (error: ServiceError) => void;
  generateMerchantPaymentId?: () => string;
  onPaymentInitiated?: (details: { merchantPaymentId: string }) => void;
}

/**
 * The ref handle of `servicepay/hosted`'s `<ServicePay>`: the operations of spec 4.4, forwarded
 * to the service's component. Calls made before its script is ready are applied, in order,
 * once it is.
 */
export interface HostedServicePayHandle {
  /** Prepares the next payment (spec 2.3); the service validates it and reports to errorConsumer. */
  createPayment(args: PaymentArgs): void;
  /** Enables (true) or disables (false) the Pay button. */
  toggleButton(enabled: boolean): void;
  /** Starts the payment at an institution, as a click on its icon does. */
  payWithInstitution(institutionId: string): void;
  /** Opens the bank list. */
  openInstitutionSelection(): void;
}

type Call = (instance: ServiceInstance) => unknown;

export interface Link {
  handle: HostedServicePayHandle;
  /**
   * Creates an instance in `element`, the one the component rendered (emptied first), under an
   * id of its own; returns its removal.
   */
  attach(Service: ServiceConstructor, element: HTMLElement, options: ServiceOptions): () => void;
  /** The `disablePayButton` prop: toggles the button of the instance when it changes. */
  disable(disabled: boolean | undefined): void;
  /** The script failed to load: the calls waiting for it are dropped (its error is reported). */
  drop(): void;
}

export function createLink(callbacks: () => LinkCallbacks): Link {
  let instance: ServiceInstance | undefined;
  let queue: Call[] = [];
  let payment: PaymentArgs | undefined;
  /** The merchantPaymentId of the prepared payment. */
  let paymentId: string | undefined;
  /** The ids payments of this component used: never given to another (spec 4.4 rule 4). */
  const usedIds = new Set<string>();
  let disabled: boolean | undefined;
  /**
   * The id of the component's element: random, so that no content of the page (a review, a
   * name: sanitisers keep ids) can carry it beforehand and be found by the service's
   * `getElementById` first. Set by `attach` in the browser, never in the server's HTML.
   */
  let elementId: string | undefined;
  /** The last event was payment_initiated: its deprecated alias that follows is the same initiation. */
  let initiated = false;

  /** A failure of the link, to the merchant's errorConsumer, with the one prefix (said). */
  const report = (error: string, location: ServiceError['location'] = 'payWithBankInstitution') =>
    callbacks().errorConsumer?.({ location, error: said(error) });

  // Methods are called on the instance, never detached, and nothing it throws reaches the page.
  const run = (target: ServiceInstance, call: Call) => {
    try {
      call(target);
    } catch (error) {
      report(`the service's component threw: ${String((error as Error)?.message ?? error)}`);
    }
  };
  const call = (op: Call) => (instance ? run(instance, op) : queue.push(op));

  /** The next payment's id, by core's rule (as the session's): the generator's, else random. */
  function newId(): string {
    let generated: unknown;
    try {
      generated = callbacks().generateMerchantPaymentId?.();
    } catch (error) {
      reportThrown('generateMerchantPaymentId', error);
    }
    return nextPaymentId(generated, usedIds);
  }

  /** The payment as the service gets it: with the merchant's id or a generated one. */
  const prepared = () => ({ ...payment!, merchantPaymentId: paymentId! });

  function createPayment(args: PaymentArgs) {
    payment = args && typeof args == 'object' ? { ...args } : args;
    // The merchant's own id, unless a payment used it (the service validates the rest).
    const given = payment?.merchantPaymentId;
    if (given === undefined || usedIds.has(given)) {
      warnPaymentId(given, usedIds);
      paymentId = newId();
    } else paymentId = given;
    if (instance) run(instance, (target) => target.createPayment(prepared()));
  }

  function onEvent(event: ServiceEventName) {
    // Spec 4.4 rule 4, once per initiation: institution_selected right after payment_initiated
    // is its deprecated alias; alone (an older script) it is the initiation.
    const initiation =
      event == 'payment_initiated' || (event == 'institution_selected' && !initiated);
    initiated = event == 'payment_initiated';
    const spent = paymentId;
    if (initiation && spent) usedIds.add(spent);
    if (initiation && payment) {
      createPayment({ ...payment, merchantPaymentId: undefined });
    }
    callbacks().eventConsumer?.(event);
    if (initiation && spent) callbacks().onPaymentInitiated?.({ merchantPaymentId: spent });
  }

  return {
    handle: {
      createPayment,
      toggleButton: (enabled) => call((target) => target.toggleButton(enabled)),
      payWithInstitution: (id) => call((target) => target.payWithInstitution(id)),
      openInstitutionSelection: () => call((target) => target.openInstitutionSelection()),
    },
    attach(Service, element, options) {
      const id = (element.id = elementId ??= `servicepay-${randomId()}`);
      // The service finds its element by id: only if that is the one rendered here.
      if (document.getElementById(id) != element) {
        report(
          withFix(
            `another element in the page has the id of <ServicePay>'s own element (${id}), or that element is not in the document: the service's component is not injected`,
            'foreignElement',
          ),
          'fetchInstitutions',
        );
        return () => {};
      }
      element.textContent = '';
      let alive = true;
      let made: ServiceInstance;
      try {
        made = new Service({
          ...options,
          disablePayButton: disabled,
          eventConsumer: (event) => alive && onEvent(event),
          errorConsumer: (error) => alive && callbacks().errorConsumer?.(error),
        });
      } catch (error) {
        report(
          `new Service(options) threw: ${String((error as Error)?.message ?? error)}`,
          'fetchInstitutions',
        );
        return () => {};
      }
      instance = made;
      if (payment) run(made, (target) => target.createPayment(prepared()));
      run(made, (target) => target.injectComponent(id));
      const waiting = queue;
      queue = [];
      for (const op of waiting) run(made, op);
      return () => {
        alive = false;
        if (instance == made) instance = undefined;
        // Not in the spec's interface: a script that has it (this project's does) ends its work.
        const ended = made as ServiceInstance & { destroy?: unknown };
        if (typeof ended.destroy == 'function')
          run(made, () => (ended as { destroy(): void }).destroy());
        element.textContent = '';
      };
    },
    disable(next) {
      if (instance && !next != !disabled) run(instance, (target) => target.toggleButton(!next));
      disabled = next;
    },
    drop() {
      queue = [];
    },
  };
}
