import type { Deliverer } from './deliveries';
import type { Doors } from './doors';
import type { SandboxKeys } from './keys';
import type { ResolvedOptions } from './options';
import type { PaymentStore } from './payments';
import type { ReceiverCheck } from './diagnosis';
import type {
  ArmedFaults,
  DeliveryFaults,
  DeliveryFaultTarget,
  FinalPaymentStatus,
  SandboxPayment,
} from './types';

/** What the routes of a running sandbox share. */
export interface SandboxContext {
  options: ResolvedOptions;
  keys: SandboxKeys;
  /** The ready-made application id. */
  applicationId: string;
  /** The sandbox's base URL, known once it listens. */
  baseUrl(): string;
  /** The Host check, the origin a client used, the decision form's token. */
  doors: Doors;
  payments: PaymentStore;
  deliverer: Deliverer;
  checker: ReceiverCheck;
  /** Settles a payment and, when it changed, sends its webhook. Undefined for an unknown id. */
  settle(
    paymentId: string,
    status: FinalPaymentStatus,
    errorDescription: string | null,
  ): SandboxPayment | undefined;
  /** Sandbox.resendNotification: the checks, then the deliverer's resend. */
  resend(paymentId: string, faults?: DeliveryFaults): number;
  /** Sandbox.breakDeliveries. */
  breakDeliveries(faults: DeliveryFaults, target?: DeliveryFaultTarget): ArmedFaults;
}
