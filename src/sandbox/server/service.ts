/**
 * The simulated service behind the routes: its payments and their lifecycle (payments/), the
 * notification each status sends, the receiver check and the commands (resend, break, check, a
 * late COMPLETED, a second paid attempt), gathered as the running sandbox's parts. Callers get
 * copies of payments, so nothing outside can change a payment (or the webhook built from it).
 */
import { PUBLIC_KEY_PATH } from '../../core/index';
import { createCommands } from '../commands/commands';
import type { Commands } from '../commands/commands';
import { createDeliverer } from '../deliveries/deliverer';
import type { Deliverer } from '../deliveries/deliverer';
import { createScheduler } from '../deliveries/scheduler';
import { createReceiverCheck } from '../deliveries/receiver-check';
import type { ReceiverCheck } from '../deliveries/receiver-check';
import { SandboxError } from '../api/errors';
import { createDoors } from './http';
import type { Doors } from './http';
import type { SandboxKeys } from '../keys/keys';
import { createLifecycle } from '../payments/lifecycle';
import type { Lifecycle } from '../payments/lifecycle';
import {
  BANK_ERROR_DESCRIPTION,
  webhookPayload,
  webhookRequestHeaders,
} from '../deliveries/notification';
import type { ResolvedOptions } from '../api/options';
import { createPaymentStore } from '../payments/store';
import type { PaymentStore } from '../payments/store';
import type { WebhookPaymentStatus, SettleOutcome } from '../api/types';

/**
 * The application id the sandbox suggests. Fixed, so an example page can be configured once;
 * any other UUID is accepted just the same.
 */
export const SANDBOX_APPLICATION_ID = '5e4d8a52-7c1b-4f0e-9a3d-2b6c1e8f4a90';

/**
 * The parts of a running sandbox. Each route takes only the parts it uses (routes.ts names
 * them).
 */
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
  /** The payments' moves, decisions and scheduled steps, each with its notification. */
  lifecycle: Lifecycle;
  /** Resend, break, the receiver check, a late COMPLETED, a second paid attempt (commands/). */
  commands: Commands;
  /** Cancels the scheduled steps and deliveries; resolves once nothing is in flight. */
  stop(): Promise<void>;
}

/**
 * The parts of a running sandbox and the actions that span them. `baseUrl` is known once the
 * server listens; the 401 hint names the public key's address with it.
 */
export function createSandboxContext(
  config: ResolvedOptions,
  keys: SandboxKeys,
  baseUrl: () => string,
): SandboxContext {
  const payments = createPaymentStore(config.maxPayments);
  const deliverer = createDeliverer({
    url: config.webhookUrl,
    retry: config.retry,
    history: config.deliveryHistory,
    kept: config.maxPayments,
    headers: (body) => webhookRequestHeaders(body, keys.privateKey),
    publicKeyUrl: () => `${baseUrl()}${PUBLIC_KEY_PATH}`,
    log: config.log,
    onAttempt: config.onDelivery,
    scaled: config.scaled,
  });
  const checker = createReceiverCheck({
    url: config.webhookUrl,
    send: (notification, options) => deliverer.sendCheck(notification, options),
    retry: config.retry,
    log: config.log,
  });

  const clock = createScheduler();
  const lifecycle = createLifecycle({
    payments,
    // Serialised once here: every attempt sends, and signs, these same bytes.
    notify: (payment) =>
      deliverer.deliver(payment.paymentId, payment.status, JSON.stringify(webhookPayload(payment))),
    options: config,
    scheduler: clock,
  });

  return {
    options: config,
    keys,
    applicationId: SANDBOX_APPLICATION_ID,
    baseUrl,
    doors: createDoors({ host: config.host, publicUrl: config.publicUrl }),
    payments,
    deliverer,
    checker,
    lifecycle,
    commands: createCommands({
      payments,
      deliverer,
      checker,
      lifecycle,
      webhookUrl: config.webhookUrl,
      log: config.log,
    }),
    stop: () => Promise.all([clock.stop(), deliverer.stop()]).then(() => undefined),
  };
}

/** Sandbox.settlePayment's outcome, checked: the status and the description it carries. */
export function checkOutcome(outcome: SettleOutcome): {
  status: WebhookPaymentStatus;
  errorDescription: string | null;
} {
  const { status, errorDescription } = (outcome ?? {}) as Partial<SettleOutcome>;
  if (status !== 'COMPLETED' && status !== 'FAILED') {
    throw new SandboxError(
      'invalid-argument',
      `settlePayment needs status "COMPLETED" or "FAILED", got ${JSON.stringify(status)}.`,
    );
  }
  if (
    errorDescription !== undefined &&
    (typeof errorDescription !== 'string' || errorDescription === '')
  ) {
    throw new SandboxError(
      'invalid-argument',
      'settlePayment errorDescription must be a non-empty string.',
    );
  }
  if (status === 'COMPLETED' && errorDescription !== undefined) {
    throw new SandboxError(
      'invalid-argument',
      'settlePayment errorDescription is only for FAILED; a COMPLETED webhook carries errorDescription null.',
    );
  }
  return {
    status,
    errorDescription: status === 'FAILED' ? (errorDescription ?? BANK_ERROR_DESCRIPTION) : null,
  };
}
