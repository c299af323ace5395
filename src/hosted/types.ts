// The service's browser interface as its spec publishes it (2.2, 2.3, 4.3, 4.4): all the
// wrapper relies on, so that any implementation of `window.Service` works under it.
import type { PaymentArgs, ServiceDisplayProps, SessionOptions } from '../core/index';

/** The options of `new window.Service(options)` (spec 2.2), under the spec's names. */
export interface ServiceOptions
  extends
    Pick<
      SessionOptions,
      | 'environment'
      | 'applicationId'
      | 'disablePayButton'
      | 'isWebView'
      | 'eventConsumer'
      | 'errorConsumer'
      | 'agentType'
    >,
    Omit<ServiceDisplayProps, 'className'> {}

/** The component object the service's script creates (spec 4.4). */
export interface ServiceInstance {
  createPayment(args: PaymentArgs): unknown;
  injectComponent(elementId: string): unknown;
  toggleButton(enabled: boolean): unknown;
  payWithInstitution(institutionId: string): unknown;
  openInstitutionSelection(): unknown;
}

/** `window.Service`, as the service's script defines it (spec 4.3). */
export type ServiceConstructor = new (options: ServiceOptions) => ServiceInstance;
