/** startSandbox: the local simulator of the service, on node:http. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { SandboxContext } from './context';
import { createDeliverer, webhookRequestHeaders } from './deliveries';
import { createDoors } from './doors';
import { SandboxError } from './errors';
import { loadKeys } from './keys';
import { resolveOptions } from './options';
import { BANK_ERROR_DESCRIPTION, webhookPayload } from './payload';
import { createPaymentStore } from './payments';
import { PUBLIC_KEY_PATH, createRequestHandler } from './router';
import type {
  DeliveryFaults,
  DeliveryFaultTarget,
  FinalPaymentStatus,
  Sandbox,
  SandboxOptions,
  SandboxPayment,
  SettleOutcome,
} from './types';
import { createReceiverCheck } from './diagnosis';

/**
 * The application id the sandbox suggests. Fixed, so an example page can be configured once;
 * any other UUID is accepted just the same.
 */
export const SANDBOX_APPLICATION_ID = '5e4d8a52-7c1b-4f0e-9a3d-2b6c1e8f4a90';

/**
 * Starts the sandbox: the service's HTTP contract, a bank page per payment, signed webhooks
 * with retries. Resolves once it listens.
 *
 * @throws SandboxConfigError for invalid options or an unusable key file.
 * @throws SandboxError when it cannot listen (port taken, address not local).
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const config = resolveOptions(options);
  const keys = await loadKeys(config.keyFile);
  const payments = createPaymentStore();
  let baseUrl = '';
  const deliverer = createDeliverer({
    url: config.webhookUrl,
    retry: config.retry,
    history: config.deliveryHistory,
    headers: (body) => webhookRequestHeaders(body, keys.privateKey),
    publicKeyUrl: () => `${baseUrl}${PUBLIC_KEY_PATH}`,
    log: config.log,
    onAttempt: config.onDelivery,
  });
  const checker = createReceiverCheck({
    url: config.webhookUrl,
    deliverer,
    retry: config.retry,
    log: config.log,
  });

  function settle(
    paymentId: string,
    status: FinalPaymentStatus,
    errorDescription: string | null,
  ): SandboxPayment | undefined {
    const result = payments.settle(paymentId, status, errorDescription);
    if (result === undefined) return undefined;
    const { payment, changed } = result;
    if (changed) {
      config.log(
        `payment ${paymentId} ${payment.status}${payment.errorDescription ? `: ${payment.errorDescription}` : ''}`,
      );
      // Serialised once here: every attempt sends, and signs, these same bytes.
      const body = JSON.stringify(webhookPayload({ ...payment, status }));
      deliverer.deliver(paymentId, status, body);
    }
    return payment;
  }

  /** The one way to resend, for the API, the page and the CLI: the errors name the cause. */
  function resend(paymentId: string, faults?: DeliveryFaults): number {
    const payment = payments.get(paymentId);
    if (payment?.status === 'PENDING') {
      throw new SandboxError(
        `servicepay: the payment ${paymentId} is still PENDING, so it has no notification yet; approve or reject it first.`,
      );
    }
    if (config.webhookUrl === undefined) {
      throw new SandboxError(
        'servicepay: nothing to resend: no webhookUrl is configured, so the sandbox sends no notification (--webhook-url).',
      );
    }
    return deliverer.resend(paymentId, faults);
  }

  function breakDeliveries(faults: DeliveryFaults, target: DeliveryFaultTarget = { count: 1 }) {
    if (typeof target !== 'object' || target === null) {
      throw new SandboxError(
        'servicepay: breakDeliveries target must be { paymentId } or { count }.',
      );
    }
    if ('paymentId' in target && payments.get(target.paymentId) === undefined) {
      throw new SandboxError(
        `servicepay: no sandbox payment has the id ${JSON.stringify(target.paymentId)}.`,
      );
    }
    const armed = deliverer.arm(faults, target);
    config.log(
      `deliveries armed: ${'paymentId' in target ? `payment ${target.paymentId}` : `the next ${target.count} notification(s)`}`,
    );
    return armed;
  }

  const ctx: SandboxContext = {
    options: config,
    keys,
    applicationId: SANDBOX_APPLICATION_ID,
    baseUrl: () => baseUrl,
    doors: createDoors({ host: config.host, publicUrl: config.publicUrl }),
    payments,
    deliverer,
    checker,
    settle,
    resend: (paymentId, faults) => resend(paymentId, faults),
    breakDeliveries: (faults, target) => breakDeliveries(faults, target),
  };
  const server = createServer(createRequestHandler(ctx));
  try {
    await listen(server, config.port, config.host);
  } catch (cause) {
    await deliverer.stop();
    const code = (cause as NodeJS.ErrnoException).code;
    const hint =
      code === 'EADDRINUSE'
        ? ' Is another sandbox running? Choose another port (port option, --port).'
        : code === 'EADDRNOTAVAIL'
          ? ' The host is not an address of this machine.'
          : '';
    throw new SandboxError(
      `servicepay: the sandbox could not listen on ${config.host}:${config.port} (${code ?? (cause as Error).message}).${hint}`,
      { cause },
    );
  }
  baseUrl = `http://${urlHost(config.host)}:${(server.address() as AddressInfo).port}`;
  config.log(`sandbox listening at ${baseUrl}`);

  let stopped: Promise<void> | undefined;
  return {
    url: baseUrl,
    publicKey: keys.publicKeyPem,
    applicationId: SANDBOX_APPLICATION_ID,
    settlePayment(paymentId: string, outcome: SettleOutcome): SandboxPayment {
      const { status, errorDescription } = checkOutcome(outcome);
      const payment = settle(paymentId, status, errorDescription);
      if (payment === undefined) {
        throw new SandboxError(
          `servicepay: no sandbox payment has the id ${JSON.stringify(paymentId)}.`,
        );
      }
      return payment;
    },
    get deliveries() {
      return deliverer.attempts();
    },
    resendNotification: resend,
    breakDeliveries,
    get armedFaults() {
      return deliverer.armed();
    },
    checkReceiver: () => checker.run(),
    get payments() {
      return new Map(payments.list().map((payment) => [payment.paymentId, payment]));
    },
    stop() {
      stopped ??= Promise.all([closeServer(server), deliverer.stop()]).then(() => {
        config.log('sandbox stopped');
      });
      return stopped;
    },
  };
}

function checkOutcome(outcome: SettleOutcome): {
  status: FinalPaymentStatus;
  errorDescription: string | null;
} {
  const { status, errorDescription } = (outcome ?? {}) as Partial<SettleOutcome>;
  if (status !== 'COMPLETED' && status !== 'FAILED') {
    throw new SandboxError(
      `servicepay: settlePayment needs status "COMPLETED" or "FAILED", got ${JSON.stringify(status)}.`,
    );
  }
  if (
    errorDescription !== undefined &&
    (typeof errorDescription !== 'string' || errorDescription === '')
  ) {
    throw new SandboxError(
      'servicepay: settlePayment errorDescription must be a non-empty string.',
    );
  }
  if (status === 'COMPLETED' && errorDescription !== undefined) {
    throw new SandboxError(
      'servicepay: settlePayment errorDescription is only for FAILED; a COMPLETED webhook carries errorDescription null.',
    );
  }
  return {
    status,
    errorDescription: status === 'FAILED' ? (errorDescription ?? BANK_ERROR_DESCRIPTION) : null,
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Stops accepting, drops idle keep-alive and open connections, resolves when closed. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The host part of the sandbox's URL: a wildcard bind is reached through loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  if (host.includes(':') && !host.startsWith('[')) return `[${host}]`;
  return host;
}
