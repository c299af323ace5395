/**
 * Webhook delivery (spec 4.1 rules 1-2, 6.1): each notification is PUT until the
 * receiver answers 200, with exponential backoff, at most maxAttempts times. Every attempt sends
 * the same bytes with the same signature, as the service resends one notification rather than
 * making a new one. No jitter: the sandbox serves one merchant, and predictable waits are
 * easier to read on the deliveries page.
 *
 * A notification may be sent more than once, each time as a new copy with its own retries: a
 * resend asked for, or what the real service may do and a merchant needs to see their receiver
 * survive (two copies at once, one more after a 200, network failures before the receiver,
 * a delay). Each attempt is kept in full (the request, the answer, how long it took, a hint
 * at the cause of a failure), the oldest dropped beyond `deliveryHistory`.
 */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { attemptLine } from './attempt-line';
import { diagnose } from './diagnosis';
import type { SendCheck } from './diagnosis';
import { SandboxError } from './errors';
import { checkFaults, describeFaults, hasFault } from './faults';
import { describeFailure, putBytes } from './notification';
import type {
  ArmedFaults,
  DeliveryFaults,
  DeliveryFaultTarget,
  DeliveryOutcome,
  DeliveryReason,
  FinalPaymentStatus,
  SandboxRetryOptions,
  WebhookDeliveryAttempt,
  WebhookRequestRecord,
} from './types';

/** The error of an attempt the sandbox failed on purpose (networkFailures). */
export const SIMULATED_FAILURE =
  'simulated network failure: the sandbox broke this attempt on purpose, nothing was sent';

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
}

/** A notification as the page shows it: the request once, its attempts newest first. */
export interface NotificationView {
  paymentId: string;
  paymentStatus: FinalPaymentStatus;
  /** A receiver check's case name, or null for a payment's notification. */
  label: string | null;
  request: WebhookRequestRecord;
  attempts: WebhookDeliveryAttempt[];
}

export interface Deliverer {
  /** Starts delivering a payment's notification (the JSON body, serialised once). */
  deliver(paymentId: string, status: FinalPaymentStatus, body: string): void;
  /** Sends a known notification again as a new copy; returns the copy's number. */
  resend(paymentId: string, faults?: DeliveryFaults): number;
  /** Arms faults for one payment or the next notifications (see Sandbox.breakDeliveries). */
  arm(faults: DeliveryFaults, target: DeliveryFaultTarget): ArmedFaults;
  armed(): ArmedFaults;
  /**
   * Sends a receiver check's notification: one copy (two with twiceAtOnce, both awaited), with
   * the check's own retry policy. Resolves with each copy's attempts once each has ended.
   */
  sendCheck: SendCheck;
  /** Every attempt kept, oldest first (copies). */
  attempts(): WebhookDeliveryAttempt[];
  /** The id of the latest attempt (0 before the first). */
  lastAttemptId(): number;
  /** The attempts kept with an id above `id`, oldest first (not copies: to read only). */
  attemptsAfter(id: number): readonly WebhookDeliveryAttempt[];
  /** The notifications with attempts kept, the latest activity first. */
  notifications(): NotificationView[];
  /** One notification with the attempts kept for it, or undefined. */
  notification(paymentId: string): NotificationView | undefined;
  /** Calls the listener with each new attempt record; returns the unsubscribe function. */
  subscribe(listener: (attempt: WebhookDeliveryAttempt) => void): () => void;
  /** Calls the listener when the armed faults change (armed, or used up). */
  subscribeArmed(listener: () => void): () => void;
  /** Scheduled attempts (retries, delays, late resends) plus attempts in flight (0 once stopped). */
  pending(): number;
  /** Cancels scheduled attempts, aborts attempts in flight, resolves when none is left. */
  stop(): Promise<void>;
}

/** Wait after attempt n (1-based) before attempt n+1. */
export function retryDelay(attempt: number, retry: Required<SandboxRetryOptions>): number {
  const delay = retry.initialDelayMs * retry.factor ** (attempt - 1);
  return Math.min(delay, retry.maxDelayMs);
}

interface Notification {
  paymentId: string;
  paymentStatus: FinalPaymentStatus;
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

export function createDeliverer(options: DelivererOptions): Deliverer {
  const { url, retry, log } = options;
  const now = options.now ?? (() => new Date());
  const records: WebhookDeliveryAttempt[] = [];
  const notifications = new Map<string, Notification>();
  const listeners = new Set<(attempt: WebhookDeliveryAttempt) => void>();
  const armedListeners = new Set<() => void>();
  const armedChanged = () => {
    for (const listener of armedListeners) {
      try {
        listener();
      } catch (error) {
        log(`a deliveries listener threw: ${describeFailure(error)}`);
      }
    }
  };
  /** Scheduled attempts, each with what to do when stop() cancels it. */
  const timers = new Map<NodeJS.Timeout, () => void>();
  const inFlight = new Set<Promise<void>>();
  const stopping = new AbortController();
  // Each attempt in flight listens to it once, and stops listening when it ends: no leak, so
  // no MaxListenersExceededWarning past 10 deliveries at once.
  setMaxListeners(0, stopping.signal);
  let lastId = 0;
  let armedNext: { faults: DeliveryFaults; remaining: number } | null = null;
  const armedPayments = new Map<string, DeliveryFaults>();

  function schedule(run: () => void, delayMs: number, onCancel: () => void = () => {}): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopping.signal.aborted) run();
    }, delayMs);
    timers.set(timer, onCancel);
  }

  function publish(attempt: WebhookDeliveryAttempt, forged: boolean): void {
    records.push(attempt);
    if (records.length > options.history) records.splice(0, records.length - options.history);
    log(attemptLine(attempt, forged));
    for (const listener of [...listeners, options.onAttempt]) {
      try {
        listener?.(structuredClone(attempt));
      } catch (error) {
        // A throwing observer must not stop the delivery it observes.
        log(`onDelivery threw: ${describeFailure(error)}`);
      }
    }
  }

  function remember(
    paymentId: string,
    paymentStatus: FinalPaymentStatus,
    body: string,
    label: string | null,
    forged = false,
  ): Notification {
    // Signed once over the exact bytes that every attempt sends (spec 5.1.3-4). A forged
    // notification (receiver check) carries the signature of other bytes.
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
        url: url!.href,
        headers: Object.freeze({ ...headers, 'Content-Length': String(bytes.length) }),
        body,
      }) as WebhookRequestRecord,
      forged,
      copies: 0,
    };
    notifications.set(paymentId, notification);
    for (const [oldest] of notifications) {
      if (notifications.size <= options.kept) break;
      notifications.delete(oldest);
    }
    return notification;
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
          : putBytes(url!, notification.bytes, {
              headers: notification.headers,
              timeoutMs: run.retry.timeoutMs,
              signal: stopping.signal,
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
        const done = task.then((answer) => {
          inFlight.delete(done);
          const durationMs = Math.round(performance.now() - started);
          let outcome: DeliveryOutcome;
          let nextAttemptAt: string | null = null;
          if (answer.status === 200) outcome = 'delivered';
          else if (stopping.signal.aborted) outcome = 'cancelled';
          else if (number >= run.retry.maxAttempts) outcome = 'gave-up';
          else {
            outcome = 'retrying';
            const delay = retryDelay(number, run.retry);
            nextAttemptAt = new Date(now().getTime() + delay).toISOString();
            // Scheduled before the record is published, so an observer that stops the sandbox
            // from its callback cancels this retry too.
            schedule(
              () => attempt(number + 1),
              delay,
              () => resolve(seen),
            );
          }
          if (outcome === 'delivered' && run.faults.lateResendMs !== undefined && !run.lateResent) {
            run.lateResent = true;
            schedule(
              () => void sendCopy(notification, 'late-resend', plainRun(run.retry)),
              run.faults.lateResendMs,
            );
          }
          const record: WebhookDeliveryAttempt = {
            id: ++lastId,
            paymentId: notification.paymentId,
            paymentStatus: notification.paymentStatus,
            url: url!.href,
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
                      url: url!.href,
                      bodyBytes: notification.bytes.length,
                      timeoutMs: run.retry.timeoutMs,
                      publicKeyUrl: options.publicKeyUrl?.(),
                    },
                  ),
            outcome,
            nextAttemptAt,
          };
          seen.push(record);
          publish(record, notification.forged);
          if (outcome !== 'retrying') resolve(seen);
        });
        inFlight.add(done);
      };
      if (stopping.signal.aborted) resolve(seen);
      else attempt(1);
    });
  }

  const plainRun = (policy: Required<SandboxRetryOptions>): Run => ({
    faults: {},
    retry: policy,
    networkFailuresLeft: 0,
    lateResent: false,
  });

  /** Sends a notification with faults: after the delay, one copy, or two at the same moment. */
  function send(
    notification: Notification,
    reason: DeliveryReason,
    faults: DeliveryFaults,
    policy: Required<SandboxRetryOptions> = retry,
  ): Promise<WebhookDeliveryAttempt[][]> {
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
      schedule(
        () => resolve(copies()),
        faults.delayMs!,
        () => resolve([]),
      ),
    );
  }

  const viewOf = (notification: Notification): NotificationView => ({
    paymentId: notification.paymentId,
    paymentStatus: notification.paymentStatus,
    label: notification.label,
    request: notification.request,
    attempts: [],
  });

  function takeArmed(paymentId: string): DeliveryFaults | undefined {
    const own = armedPayments.get(paymentId);
    if (own !== undefined) {
      armedPayments.delete(paymentId);
      armedChanged();
      return own;
    }
    return undefined;
  }

  const armed = (): ArmedFaults => ({
    next: armedNext && { faults: { ...armedNext.faults }, remaining: armedNext.remaining },
    payments: Array.from(armedPayments, ([paymentId, faults]) => ({
      paymentId,
      faults: { ...faults },
    })),
  });

  return {
    deliver(paymentId, status, body) {
      if (stopping.signal.aborted) return;
      if (url === undefined) {
        log(`webhook ${status} ${paymentId} not sent: no webhookUrl is configured`);
        return;
      }
      let faults = takeArmed(paymentId);
      if (faults === undefined && armedNext !== null) {
        faults = armedNext.faults;
        armedNext.remaining -= 1;
        if (armedNext.remaining <= 0) armedNext = null;
        armedChanged();
      }
      void send(remember(paymentId, status, body, null), 'settled', faults ?? {});
    },
    resend(paymentId, faults) {
      const notification = notifications.get(paymentId);
      if (notification === undefined) {
        throw new SandboxError(
          `servicepay: the sandbox has sent no notification for the payment ${JSON.stringify(paymentId)}; it sends one when a payment reaches COMPLETED or FAILED with a webhookUrl configured.`,
        );
      }
      if (stopping.signal.aborted) {
        throw new SandboxError('servicepay: the sandbox is stopped; it sends nothing more.');
      }
      const chosen = faults !== undefined ? checkFaults(faults) : (takeArmed(paymentId) ?? {});
      const copy = notification.copies + 1;
      void send(notification, 'resend', chosen);
      return copy;
    },
    arm(faults, target) {
      const checked = checkFaults(faults);
      if ('paymentId' in target) {
        if (typeof target.paymentId !== 'string' || target.paymentId === '') {
          throw new SandboxError(
            'servicepay: breakDeliveries target paymentId must be a payment id.',
          );
        }
        if (hasFault(checked)) armedPayments.set(target.paymentId, checked);
        else armedPayments.delete(target.paymentId);
      } else {
        const { count } = target;
        if (!Number.isInteger(count) || count < 0 || count > 1000) {
          throw new SandboxError(
            `servicepay: breakDeliveries target count must be an integer from 0 to 1000, got ${String(count)}.`,
          );
        }
        armedNext = count > 0 && hasFault(checked) ? { faults: checked, remaining: count } : null;
      }
      armedChanged();
      return armed();
    },
    armed,
    sendCheck(check, { reason, faults = {}, retry: policy }) {
      if (url === undefined || stopping.signal.aborted) return Promise.resolve([]);
      const notification =
        notifications.get(check.paymentId) ??
        remember(check.paymentId, check.status, check.body, check.label, check.forged);
      return send(notification, reason, faults, policy);
    },
    attempts: () => records.map((attempt) => structuredClone(attempt)),
    lastAttemptId: () => lastId,
    attemptsAfter(id) {
      // Ids increase along the records: the ones after `id` are a tail.
      let start = records.length;
      while (start > 0 && records[start - 1]!.id > id) start -= 1;
      return records.slice(start);
    },
    notifications() {
      const views = new Map<string, NotificationView>();
      for (let i = records.length - 1; i >= 0; i -= 1) {
        const attempt = records[i]!;
        let view = views.get(attempt.paymentId);
        const notification = notifications.get(attempt.paymentId);
        // A forgotten notification's attempts (maxPayments) stay only in the attempts list.
        if (notification === undefined) continue;
        if (view === undefined) views.set(attempt.paymentId, (view = viewOf(notification)));
        view.attempts.push(attempt);
      }
      return [...views.values()];
    },
    notification(paymentId) {
      const notification = notifications.get(paymentId);
      if (notification === undefined) return undefined;
      const view = viewOf(notification);
      for (let i = records.length - 1; i >= 0; i -= 1) {
        if (records[i]!.paymentId === paymentId) view.attempts.push(records[i]!);
      }
      return view;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscribeArmed(listener) {
      armedListeners.add(listener);
      return () => armedListeners.delete(listener);
    },
    pending: () => timers.size + inFlight.size,
    async stop() {
      stopping.abort();
      for (const [timer, cancelled] of timers) {
        clearTimeout(timer);
        cancelled();
      }
      timers.clear();
      listeners.clear();
      armedListeners.clear();
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
