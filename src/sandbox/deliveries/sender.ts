/**
 * Sending a notification: its bytes signed once (every attempt of every copy sends the same
 * bytes and signature, as the service resends one notification rather than making a new one),
 * then each copy PUT until the receiver answers 200, with exponential backoff, at most
 * maxAttempts times (spec 4.1 rules 1-2, 6.1). No jitter: the sandbox serves one merchant, and
 * predictable waits are easier to read on the deliveries page. Faults on purpose happen here:
 * a delay, two copies at once, network failures before the receiver, a copy after the 200.
 */
import { performance } from 'node:perf_hooks';
import { diagnose } from './hints';
import { describeFaults, hasFault } from './faults';
import { describeFailure, putBytes } from './notification';
import type {
  DeliveryFaults,
  DeliveryOutcome,
  DeliveryReason,
  WebhookDeliveryAttempt,
  WebhookRequestRecord,
  SandboxPaymentStatus,
} from '../api/types';
import type { AttemptLog } from './attempt-log';
import type { Scheduler } from './scheduler';

/** The error of an attempt the sandbox failed on purpose (networkFailures). */
export const SIMULATED_FAILURE =
  'simulated network failure: the sandbox broke this attempt on purpose, nothing was sent';

/** How failed webhook deliveries are retried. The wait before attempt n+1 is
 * `min(initialDelayMs * factor^(n-1), maxDelayMs)`. */
export interface SandboxRetryOptions {
  /**
   * Wait before the second attempt, in milliseconds.
   * @default 500
   */
  initialDelayMs?: number;
  /**
   * Each further wait is the previous one times this (at least 1).
   * @default 2
   */
  factor?: number;
  /**
   * Longest wait between two attempts, in milliseconds.
   * @default 30000
   */
  maxDelayMs?: number;
  /**
   * Attempts per notification, the first included; delivery then gives up.
   * @default 20
   */
  maxAttempts?: number;
  /**
   * An attempt without a complete answer after this many milliseconds counts as failed.
   * @default 5000
   */
  timeoutMs?: number;
}

/** Wait after attempt n (1-based) before attempt n+1. */
export function retryDelay(attempt: number, retry: Required<SandboxRetryOptions>): number {
  const delay = retry.initialDelayMs * retry.factor ** (attempt - 1);
  return Math.min(delay, retry.maxDelayMs);
}

/** A notification, signed once, and how many copies of it were sent. */
export interface Notification {
  paymentId: string;
  paymentStatus: SandboxPaymentStatus;
  /** A receiver check's case name, or null for a payment's notification. */
  label: string | null;
  bytes: Buffer;
  headers: Record<string, string>;
  request: WebhookRequestRecord;
  /** The receiver check's forged case: a refusal is the answer it wants. */
  forged: boolean;
  /** Copies sent so far. */
  copies: number;
}

/** One send of a notification: its copies share the faults' budget. */
interface Run {
  faults: DeliveryFaults;
  retry: Required<SandboxRetryOptions>;
  networkFailuresLeft: number;
  lateResent: boolean;
}

interface Answer {
  status: number | null;
  responseText: string | null;
  error: string | null;
  failure: unknown;
}

export interface Sender {
  /**
   * Signs and keeps a notification (the oldest forgotten beyond `kept`). A forged one (the
   * receiver check) carries the signature of other bytes.
   */
  remember(
    paymentId: string,
    status: SandboxPaymentStatus,
    body: string,
    label: string | null,
    forged?: boolean,
  ): Notification;
  /** A payment's latest notification kept (one per status it reached), by its payment id. */
  get(paymentId: string): Notification | undefined;
  /** Sends it with faults: after the delay, one copy or two at once; resolves with each copy's attempts. */
  send(
    notification: Notification,
    reason: DeliveryReason,
    faults: DeliveryFaults,
    policy?: Required<SandboxRetryOptions>,
  ): Promise<WebhookDeliveryAttempt[][]>;
}

export function createSender(options: {
  url: URL;
  retry: Required<SandboxRetryOptions>;
  /** Notifications kept (maxPayments). */
  kept: number;
  headers: (body: Buffer) => Record<string, string>;
  publicKeyUrl?: () => string;
  log: (line: string) => void;
  now: () => Date;
  /** A fault's wait on the sandbox's clock, in real milliseconds (the time scale applied). */
  scaled: (ms: number) => number;
  attempts: AttemptLog;
  scheduler: Scheduler;
}): Sender {
  const { url, now, attempts, scheduler, log } = options;
  /** Each payment's latest notification; the payment with the latest one last. */
  const notifications = new Map<string, Notification>();

  function put(notification: Notification, run: Run): Promise<Answer> {
    return putBytes(url, notification.bytes, {
      headers: notification.headers,
      timeoutMs: run.retry.timeoutMs,
      signal: scheduler.signal,
    }).then(
      (response) => ({
        status: response.statusCode,
        responseText: response.bodyText,
        error: null,
        failure: null,
      }),
      (failure: unknown) => ({
        status: null,
        responseText: null,
        error: describeFailure(failure),
        failure,
      }),
    );
  }

  /** Sends one copy until 200 or the end of its retries; resolves with its attempts. */
  function sendCopy(
    notification: Notification,
    reason: DeliveryReason,
    run: Run,
  ): Promise<WebhookDeliveryAttempt[]> {
    notification.copies += 1;
    const copy = notification.copies;
    const seen: WebhookDeliveryAttempt[] = [];
    return new Promise((resolve) => {
      const attempt = (number: number): void => {
        const at = now();
        const started = performance.now();
        const simulated = run.networkFailuresLeft > 0;
        if (simulated) run.networkFailuresLeft -= 1;
        const task: Promise<Answer> = simulated
          ? Promise.resolve({
              status: null,
              responseText: null,
              error: SIMULATED_FAILURE,
              failure: null,
            })
          : put(notification, run);
        scheduler.track(task, (answer) => {
          const durationMs = Math.round(performance.now() - started);
          let outcome: DeliveryOutcome;
          let nextAttemptAt: string | null = null;
          if (answer.status === 200) outcome = 'delivered';
          else if (scheduler.signal.aborted) outcome = 'cancelled';
          else if (number >= run.retry.maxAttempts) outcome = 'gave-up';
          else {
            outcome = 'retrying';
            const delay = retryDelay(number, run.retry);
            nextAttemptAt = new Date(now().getTime() + delay).toISOString();
            // Scheduled before the record is published, so an observer that stops the sandbox
            // from its callback cancels this retry too.
            scheduler.schedule(
              () => attempt(number + 1),
              delay,
              () => resolve(seen),
            );
          }
          if (outcome === 'delivered' && run.faults.lateResendMs !== undefined && !run.lateResent) {
            run.lateResent = true;
            scheduler.schedule(
              () => void sendCopy(notification, 'late-resend', plainRun(run.retry)),
              options.scaled(run.faults.lateResendMs),
            );
          }
          const record: WebhookDeliveryAttempt = {
            id: attempts.nextId(),
            paymentId: notification.paymentId,
            paymentStatus: notification.paymentStatus,
            url: url.href,
            copy,
            reason,
            attempt: number,
            at: at.toISOString(),
            durationMs,
            request: notification.request,
            status: answer.status,
            responseText: answer.responseText,
            error: answer.error,
            simulated,
            // A cancelled attempt is the sandbox stopping, not the receiver's doing.
            hint:
              outcome === 'cancelled'
                ? null
                : diagnose(
                    { status: answer.status, failure: answer.failure, simulated },
                    {
                      url: url.href,
                      bodyBytes: notification.bytes.length,
                      timeoutMs: run.retry.timeoutMs,
                      publicKeyUrl: options.publicKeyUrl?.(),
                    },
                  ),
            outcome,
            nextAttemptAt,
          };
          seen.push(record);
          attempts.publish(record, notification.forged);
          if (outcome !== 'retrying') resolve(seen);
        });
      };
      if (scheduler.signal.aborted) resolve(seen);
      else attempt(1);
    });
  }

  const plainRun = (policy: Required<SandboxRetryOptions>): Run => ({
    faults: {},
    retry: policy,
    networkFailuresLeft: 0,
    lateResent: false,
  });

  return {
    remember(paymentId, paymentStatus, body, label, forged = false) {
      // Signed once over the exact bytes that every attempt sends (spec 5.1.3-4).
      const bytes = Buffer.from(body, 'utf8');
      const headers = options.headers(forged ? Buffer.from(`${body} `, 'utf8') : bytes);
      const notification: Notification = {
        paymentId,
        paymentStatus,
        label,
        bytes,
        headers,
        request: Object.freeze({
          method: 'PUT',
          url: url.href,
          headers: Object.freeze({ ...headers, 'Content-Length': String(bytes.length) }),
          body,
        }) as WebhookRequestRecord,
        forged,
        copies: 0,
      };
      notifications.delete(paymentId);
      notifications.set(paymentId, notification);
      for (const [oldest] of notifications) {
        if (notifications.size <= options.kept) break;
        notifications.delete(oldest);
      }
      return notification;
    },
    get: (paymentId) => notifications.get(paymentId),
    send(notification, reason, faults, policy = options.retry) {
      const run: Run = {
        ...plainRun(policy),
        faults,
        networkFailuresLeft: faults.networkFailures ?? 0,
      };
      if (hasFault(faults)) {
        log(`webhook ${notification.paymentId} broken on purpose: ${describeFaults(faults)}`);
      }
      const copies = () =>
        Promise.all([
          sendCopy(notification, reason, run),
          ...(faults.twiceAtOnce ? [sendCopy(notification, 'twice-at-once', run)] : []),
        ]);
      if (!faults.delayMs) return copies();
      return new Promise((resolve) =>
        scheduler.schedule(
          () => resolve(copies()),
          options.scaled(faults.delayMs!),
          () => resolve([]),
        ),
      );
    },
  };
}
