/**
 * The receiver check: a fixed sequence of what the real service may do to a notification,
 * run one case after another against the configured webhook URL, with what the receiver
 * answered to each. Each case sends a notification of its own (a new payment id), signed with
 * the sandbox's key, so a merchant can find each one in their own records.
 *
 * The sandbox sees answers only. A receiver that answers 200 to both copies of "twice at
 * once" may still have done the work twice: that is in the merchant's database, which the
 * report says in so many words (RECEIVER_CHECK_NOTE).
 */
import { SandboxError } from '../api/errors';
import { createListeners } from './listeners';
import { buildTestWebhookPayload } from './notification';
import type {
  DeliveryFaults,
  DeliveryReason,
  WebhookPaymentStatus,
  ReceiverCheckCase,
  ReceiverCheckCaseName,
  ReceiverCheckReport,
  WebhookDeliveryAttempt,
} from '../api/types';
import type { SandboxRetryOptions } from './sender';

export const RECEIVER_CHECK_NOTE =
  'The sandbox sees only what the receiver answered. Whether your handler did its work once (one order marked paid, one email, one stock movement per payment) is yours to check in your own database and logs: each case sent a notification with its own payment id, listed here.';

export interface CaseSpec {
  name: ReceiverCheckCaseName;
  title: string;
  description: string;
  expected: string;
  faults?: DeliveryFaults;
  /** The same notification once more after it was answered 200. */
  again?: boolean;
  forged?: boolean;
  judge(copies: WebhookDeliveryAttempt[][]): { passed: boolean; verdict: string };
}

const delivered = (copy: WebhookDeliveryAttempt[] | undefined) =>
  copy?.at(-1)?.outcome === 'delivered';

/** "200", "401", "network failure (on purpose)", or the network error. */
export function answerText(attempt: WebhookDeliveryAttempt): string {
  if (attempt.simulated) return 'network failure (on purpose)';
  return attempt.status !== null ? String(attempt.status) : (attempt.error ?? 'no answer');
}

/** Why a copy never got its 200, from its last attempt's hint. */
function failureOf(copy: WebhookDeliveryAttempt[] | undefined): string {
  const last = copy?.at(-1);
  if (last === undefined) return 'nothing was sent (the sandbox stopped)';
  return `the last answer was ${answerText(last)}${last.hint ? `: ${last.hint.text}` : ''}`;
}

/** The verdict on one copy: passed with `verdict` when it got its 200, otherwise why not. */
function deliveredOrWhy(
  copy: WebhookDeliveryAttempt[] | undefined,
  verdict: string,
): { passed: boolean; verdict: string } {
  return delivered(copy)
    ? { passed: true, verdict }
    : { passed: false, verdict: `Never answered 200: ${failureOf(copy)}.` };
}

/** The verdict on a case's one copy: its 200, and on which attempt when not the first. */
const answered200: CaseSpec['judge'] = ([copy]) =>
  deliveredOrWhy(
    copy,
    `Answered 200${copy && copy.length > 1 ? ` on attempt ${copy.length}` : ''}.`,
  );

/** The cases, in the order they run. A case without a judge of its own is answered200's. */
const CASE_LIST: readonly (Omit<CaseSpec, 'judge'> & Partial<Pick<CaseSpec, 'judge'>>)[] = [
  {
    name: 'once',
    title: 'Delivered once',
    description: 'One signed notification, sent once.',
    expected: '200',
  },
  {
    name: 'twice-at-once',
    title: 'Twice at once',
    description:
      'The same notification (same bytes, same signature) sent twice at the same moment.',
    expected:
      '200 to both copies; one may first get 409 or 503 and its 200 on a later attempt. The work is done once.',
    faults: { twiceAtOnce: true },
    judge: (copies) =>
      copies.length === 2 && copies.every(delivered)
        ? { passed: true, verdict: 'Both copies were answered 200 in the end.' }
        : {
            passed: false,
            verdict: `A copy never got its 200, so the service would send it again and again: ${failureOf(copies.find((c) => !delivered(c)))}.`,
          },
  },
  {
    name: 'late-resend',
    title: 'Again after a 200',
    description: 'One notification, answered 200, then sent once more (a late resend).',
    expected: '200 again, without doing the work again.',
    again: true,
    judge: ([first, second]) => {
      if (!delivered(first))
        return { passed: false, verdict: `The first copy never got its 200: ${failureOf(first)}.` };
      if (!delivered(second)) {
        return {
          passed: false,
          verdict: `The late copy was not answered 200, so the service would keep sending it: ${failureOf(second)}. A notification already handled is answered 200.`,
        };
      }
      return { passed: true, verdict: 'The late copy was answered 200 too.' };
    },
  },
  {
    name: 'network-failures',
    title: 'Network failures',
    description:
      'Two attempts failed at the network level before reaching the receiver, then sent.',
    expected: '200 on the third attempt: the receiver sees the notification once.',
    faults: { networkFailures: 2 },
    judge: ([copy]) => deliveredOrWhy(copy, 'Answered 200 once the network let it through.'),
  },
  {
    name: 'delay',
    title: 'Delayed',
    description: 'One notification held back for a second before it is sent.',
    expected: '200. Your result page has to wait for a notification that comes late.',
    faults: { delayMs: 1000 },
  },
  {
    name: 'forged-signature',
    title: 'Forged signature',
    description: 'A notification whose signature was made over other bytes, sent once.',
    expected: '401 (any refusal), and nothing done (a signature failure it logs now is this).',
    forged: true,
    judge: ([copy]) => {
      const status = copy?.[0]?.status ?? null;
      if (status === null) return { passed: false, verdict: `No answer: ${failureOf(copy)}.` };
      if (status >= 200 && status < 300) {
        return {
          passed: false,
          verdict: `Answered ${status} to a notification whose signature does not match its body: the receiver does not verify signatures, so anyone who can reach it can mark orders paid.`,
        };
      }
      return status >= 400 && status < 500
        ? { passed: true, verdict: `Refused with ${status}.` }
        : {
            passed: false,
            verdict: `Answered ${status}; a receiver that verifies refuses it with 401.`,
          };
    },
  },
];

const CASES: readonly CaseSpec[] = CASE_LIST.map((spec) => ({ judge: answered200, ...spec }));

/** What the receiver check needs to send one case's notification its own way. */
export interface CheckNotification {
  paymentId: string;
  status: WebhookPaymentStatus;
  body: string;
  label: string;
  /** Signs other bytes than those sent: a receiver that verifies must answer 401. */
  forged?: boolean;
}

/**
 * Sends a receiver check's notification: one copy (two with twiceAtOnce, both awaited), with
 * the check's own retry policy. Resolves with each copy's attempts once each has ended. It is
 * the deliverer's sendCheck, passed in: the deliverer imports this file's hints, so this file
 * does not import the deliverer.
 */
export type SendCheck = (
  notification: CheckNotification,
  options: {
    reason: DeliveryReason;
    faults?: DeliveryFaults;
    retry: Required<SandboxRetryOptions>;
  },
) => Promise<WebhookDeliveryAttempt[][]>;

/** The refusal of a check without a webhook URL (the command layer checks first). */
export function checkNeedsWebhookUrl(): SandboxError {
  return new SandboxError(
    'no-webhook-url',
    'the receiver check needs a webhook URL: start the sandbox with webhookUrl (--webhook-url).',
  );
}

export interface ReceiverCheck {
  /** Runs the check, or joins the one running. */
  run(): Promise<ReceiverCheckReport>;
  /** Whether a check is running, and the last report. */
  state(): { running: boolean; report: ReceiverCheckReport | null };
  /** Called when a check starts and when it ends; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

export function createReceiverCheck(options: {
  url: URL | undefined;
  send: SendCheck;
  retry: Required<SandboxRetryOptions>;
  log: (line: string) => void;
  now?: () => Date;
}): ReceiverCheck {
  const { send, log } = options;
  const now = options.now ?? (() => new Date());
  let running: Promise<ReceiverCheckReport> | undefined;
  let report: ReceiverCheckReport | null = null;
  // A page's event stream that broke must not stop the check.
  const listeners = createListeners();
  const notify = () => listeners.emit();
  // Quick enough to wait for, enough attempts for the network-failures case to get through.
  const policy: Required<SandboxRetryOptions> = {
    initialDelayMs: Math.min(options.retry.initialDelayMs, 200),
    factor: options.retry.factor,
    maxDelayMs: Math.min(options.retry.maxDelayMs, 1000),
    maxAttempts: 4,
    timeoutMs: options.retry.timeoutMs,
  };

  async function runCase(spec: CaseSpec, index: number, url: URL): Promise<ReceiverCheckCase> {
    const payload = buildTestWebhookPayload('COMPLETED', {
      reference: `CHECK-${index + 1}`,
      metadata: { source: 'receiver-check', case: spec.name },
    });
    const notification: CheckNotification = {
      paymentId: payload.paymentId,
      status: 'COMPLETED',
      body: JSON.stringify(payload),
      label: `Receiver check: ${spec.title}`,
      forged: spec.forged,
    };
    const retry = spec.forged ? { ...policy, maxAttempts: 1 } : policy;
    const copies = await send(notification, {
      reason: 'receiver-check',
      faults: spec.faults,
      retry,
    });
    if (spec.again && delivered(copies[0])) {
      copies.push(...(await send(notification, { reason: 'late-resend', retry })));
    }
    const { passed, verdict } = spec.judge(copies);
    log(
      `receiver check ${spec.name} against ${url.href}: ${passed ? 'as expected' : 'NOT as expected'}. ${verdict}`,
    );
    return {
      name: spec.name,
      description: spec.description,
      expected: spec.expected,
      paymentId: notification.paymentId,
      copies: copies.map((attempts) => ({
        copy: attempts[0]?.copy ?? 0,
        reason: attempts[0]?.reason ?? 'receiver-check',
        answers: attempts.map(answerText),
        outcome: attempts.at(-1)?.outcome ?? 'cancelled',
      })),
      passed,
      verdict,
    };
  }

  async function check(url: URL): Promise<ReceiverCheckReport> {
    const startedAt = now().toISOString();
    const cases: ReceiverCheckCase[] = [];
    for (const [index, spec] of CASES.entries()) cases.push(await runCase(spec, index, url));
    return {
      url: url.href,
      startedAt,
      finishedAt: now().toISOString(),
      passed: cases.every((c) => c.passed),
      cases,
      note: RECEIVER_CHECK_NOTE,
    };
  }

  return {
    run() {
      const { url } = options;
      if (url === undefined) return Promise.reject(checkNeedsWebhookUrl());
      if (running === undefined) {
        running = check(url)
          .then((result) => {
            report = result;
            return result;
          })
          .finally(() => {
            running = undefined;
            notify();
          });
        notify();
      }
      return running;
    },
    state: () => ({ running: running !== undefined, report }),
    subscribe: listeners.subscribe,
  };
}

/** A case of the check by its name: its title, expectation and judge (the deliveries page). */
export function caseSpec(name: unknown): CaseSpec | undefined {
  return CASES.find((spec) => spec.name === name);
}
