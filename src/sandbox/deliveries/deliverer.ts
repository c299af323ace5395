/**
 * Webhook delivery, put together from its four parts (this folder): the attempt log (every
 * attempt kept in full, the oldest dropped beyond `deliveryHistory`), the fault plan (faults
 * armed ahead of the notifications they break), the sender (a notification signed once, each
 * copy retried until 200) and the scheduler (the timers, the attempts in flight, the stop).
 *
 * A notification may be sent more than once, each time as a new copy with its own retries: a
 * resend asked for, or what the real service may do and a merchant needs to see their receiver
 * survive (two copies at once, one more after a 200, network failures before the receiver,
 * a delay).
 */
import type { SendCheck } from './receiver-check';
import { SandboxError } from '../api/errors';
import { describeFailure } from './notification';
import { createAttemptLog } from './attempt-log';
import type { AttemptLog } from './attempt-log';
import { createFaultPlan } from './faults';
import type { FaultPlan } from './faults';
import { createScheduler } from './scheduler';
import { createSender } from './sender';
import type { Notification } from './sender';
import type {
  DeliveryFaults,
  WebhookDeliveryAttempt,
  SandboxPaymentStatus,
  WebhookRequestRecord,
} from '../api/types';
import type { SandboxRetryOptions } from './sender';

export { SIMULATED_FAILURE, retryDelay } from './sender';

export interface DelivererOptions {
  /** Receiver address; without one, notifications are not sent. */
  url: URL | undefined;
  retry: Required<SandboxRetryOptions>;
  /** Attempt records kept; the oldest go first beyond it. */
  history: number;
  /** Notifications kept (maxPayments); the oldest are forgotten beyond it. */
  kept: number;
  /** The request headers for exact body bytes, the signature included. */
  headers: (body: Buffer) => Record<string, string>;
  /** The public key's address, named in the 401 hint. */
  publicKeyUrl?: () => string;
  log: (line: string) => void;
  onAttempt?: (attempt: WebhookDeliveryAttempt) => void;
  now?: () => Date;
  /** A fault's wait in real milliseconds (the time scale applied); by default as given. */
  scaled?: (ms: number) => number;
}

/**
 * A payment's notifications as the page shows them: the latest's request once, the attempts of
 * each newest first. Usually one; a payment sends one per status it reaches (PENDING, then
 * COMPLETED), and the attempts say which.
 */
export interface NotificationView {
  paymentId: string;
  /** The latest notification's status and request. */
  paymentStatus: SandboxPaymentStatus;
  /** A receiver check's case name, or null for a payment's notification. */
  label: string | null;
  request: WebhookRequestRecord;
  attempts: WebhookDeliveryAttempt[];
}

/** The deliverer: its attempt log's and fault plan's reading and arming, and the sending. */
export interface Deliverer
  extends
    Pick<AttemptLog, 'attempts' | 'lastAttemptId' | 'attemptsAfter' | 'subscribe'>,
    Pick<FaultPlan, 'arm' | 'armed'> {
  /** Starts delivering a payment's notification of a status (the JSON body, serialised once). */
  deliver(paymentId: string, status: SandboxPaymentStatus, body: string): void;
  /**
   * Sends a known notification again as a new copy (faults checked by the caller: the command
   * layer); returns the copy's number.
   */
  resend(paymentId: string, faults?: DeliveryFaults): number;
  /**
   * Sends a receiver check's notification: one copy (two with twiceAtOnce, both awaited), with
   * the check's own retry policy. Resolves with each copy's attempts once each has ended.
   */
  sendCheck: SendCheck;
  /** The notifications with attempts kept, the latest activity first. */
  notifications(): NotificationView[];
  /** One notification with the attempts kept for it, or undefined. */
  notification(paymentId: string): NotificationView | undefined;
  /** Calls the listener when the armed faults change (armed, or used up). */
  subscribeArmed(listener: () => void): () => void;
  /** Scheduled attempts (retries, delays, late resends) plus attempts in flight (0 once stopped). */
  pending(): number;
  /** Cancels scheduled attempts, aborts attempts in flight, resolves when none is left. */
  stop(): Promise<void>;
}

export function createDeliverer(options: DelivererOptions): Deliverer {
  const { url, log } = options;
  const attemptLog = createAttemptLog({ ...options, describe: describeFailure });
  const plan = createFaultPlan(log, describeFailure);
  const scheduler = createScheduler();
  const sender =
    url &&
    createSender({
      ...options,
      url,
      now: options.now ?? (() => new Date()),
      scaled: options.scaled ?? ((ms) => ms),
      attempts: attemptLog,
      scheduler,
    });

  const viewOf = (notification: Notification): NotificationView => ({
    paymentId: notification.paymentId,
    paymentStatus: notification.paymentStatus,
    label: notification.label,
    request: notification.request,
    attempts: [],
  });

  return {
    deliver(paymentId, status, body) {
      if (scheduler.signal.aborted) return;
      if (sender === undefined) {
        log(`webhook ${status} ${paymentId} not sent: no webhookUrl is configured`);
        return;
      }
      const faults = plan.takeForNew(paymentId) ?? {};
      void sender.send(sender.remember(paymentId, status, body, null), 'settled', faults);
    },
    resend(paymentId, faults) {
      const notification = sender?.get(paymentId);
      if (sender === undefined || notification === undefined) {
        throw new SandboxError(
          'no-notification',
          `the sandbox has sent no notification for the payment ${JSON.stringify(paymentId)}; it sends one when a payment reaches COMPLETED or FAILED with a webhookUrl configured.`,
        );
      }
      if (scheduler.signal.aborted) {
        throw new SandboxError('stopped', 'the sandbox is stopped; it sends nothing more.');
      }
      const chosen = faults ?? plan.takeOwn(paymentId) ?? {};
      const copy = notification.copies + 1;
      void sender.send(notification, 'resend', chosen);
      return copy;
    },
    arm: plan.arm,
    armed: plan.armed,
    sendCheck(check, { reason, faults = {}, retry: policy }) {
      if (sender === undefined || scheduler.signal.aborted) return Promise.resolve([]);
      const notification =
        sender.get(check.paymentId) ??
        sender.remember(check.paymentId, check.status, check.body, check.label, check.forged);
      return sender.send(notification, reason, faults, policy);
    },
    attempts: attemptLog.attempts,
    lastAttemptId: attemptLog.lastAttemptId,
    attemptsAfter: attemptLog.attemptsAfter,
    notifications() {
      const views = new Map<string, NotificationView>();
      for (const attempt of attemptLog.newestFirst()) {
        const notification = sender?.get(attempt.paymentId);
        // A forgotten notification's attempts (maxPayments) stay only in the attempts list.
        if (notification === undefined) continue;
        let view = views.get(attempt.paymentId);
        if (view === undefined) views.set(attempt.paymentId, (view = viewOf(notification)));
        view.attempts.push(attempt);
      }
      return [...views.values()];
    },
    notification(paymentId) {
      const notification = sender?.get(paymentId);
      if (notification === undefined) return undefined;
      const view = viewOf(notification);
      for (const attempt of attemptLog.newestFirst()) {
        if (attempt.paymentId === paymentId) view.attempts.push(attempt);
      }
      return view;
    },
    subscribe: attemptLog.subscribe,
    subscribeArmed: plan.subscribe,
    pending: scheduler.pending,
    async stop() {
      const stopped = scheduler.stop();
      attemptLog.clear();
      plan.clear();
      await stopped;
    },
  };
}
