import type { Deliverer } from './deliveries';
import type { SandboxKeys } from './keys';
import type { ResolvedOptions } from './options';
import type { PaymentStore } from './payments';
import type { FinalPaymentStatus, SandboxPayment } from './types';

/** What the routes of a running sandbox share. */
export interface SandboxContext {
  options: ResolvedOptions;
  keys: SandboxKeys;
  /** The ready-made application id. */
  applicationId: string;
  /** The sandbox's base URL, known once it listens. */
  baseUrl(): string;
  payments: PaymentStore;
  deliverer: Deliverer;
  /** Settles a payment and, when it changed, sends its webhook. Undefined for an unknown id. */
  settle(
    paymentId: string,
    status: FinalPaymentStatus,
    errorDescription: string | null,
  ): SandboxPayment | undefined;
}
