/**
 * The sandbox's public types: its payments, deliveries, faults, the receiver check's report and
 * the running Sandbox. startSandbox's options are in options.ts beside it (which imports from
 * here). It imports nothing of the sandbox, so every folder may take its types.
 */
import type { AgentType, Environment } from '../../core/index';
import type { WebhookPaymentStatus } from '../../webhook/verification/notification';

/**
 * Where a sandbox payment is: PENDING (waiting for the shopper's decision, or for the bank),
 * then COMPLETED or FAILED (final, spec 3: the protocol's WebhookPaymentStatus), and SETTLED
 * after COMPLETED when the bank settles later. The live service notifies PENDING and SETTLED
 * too; a receiver records neither.
 */
export type SandboxPaymentStatus = 'PENDING' | WebhookPaymentStatus | 'SETTLED';

export type { WebhookPaymentStatus };

/**
 * A decision on the bank page, as its form sends it: `approve`, `reject`, `error` (the bank
 * fails it), `abandon` (the shopper leaves without deciding: FAILED when the authorisation
 * window closes), `approve-pending` (PENDING at once, COMPLETED after bankCheckMs) and
 * `approve-settles-later` (COMPLETED, then SETTLED after settleAfterMs).
 */
export type BankDecision =
  'approve' | 'reject' | 'error' | 'abandon' | 'approve-pending' | 'approve-settles-later';

/** A step of a payment's life that the sandbox has scheduled and not taken yet. */
export interface ScheduledStep {
  paymentId: string;
  /** The status the payment then reaches, and whose notification is sent. */
  status: Exclude<SandboxPaymentStatus, 'PENDING'>;
  /**
   * Why: `authorisation-window` (it closes on a payment left undecided), `bank-check` (the
   * bank's check of an approved payment ends), `settlement`.
   */
  reason: 'authorisation-window' | 'bank-check' | 'settlement';
  /** ISO 8601 time it is due (real time: the time scale applied). */
  at: string;
}

/** A payment as the sandbox holds it. */
export interface SandboxPayment {
  paymentId: string;
  /** The merchant's id from the payment request, or null when it gave none. */
  merchantPaymentId: string | null;
  applicationId: string;
  environment: Environment;
  institutionId: string;
  amount: number;
  currency: 'GBP';
  reference: string;
  /** The metadata object of the request, or null. Returned unchanged in the webhook. */
  metadata: Record<string, unknown> | null;
  agentType: AgentType;
  status: SandboxPaymentStatus;
  /** The bank page's decision, or null: none yet, or the payment was settled from code. */
  decision: BankDecision | null;
  /** Why the payment failed; null unless status is FAILED. */
  errorDescription: string | null;
  /** ISO 8601 time of creation. */
  createdAt: string;
  /** ISO 8601 time it reached COMPLETED or FAILED, or null. */
  settledAt: string | null;
}

/** The outcome given to settlePayment. */
export interface SettleOutcome {
  status: WebhookPaymentStatus;
  /**
   * Why it failed; only for FAILED.
   * @default 'The bank reported an error' (for FAILED)
   */
  errorDescription?: string;
}

/**
 * What an attempt led to: `delivered` (the receiver answered 200), `retrying` (another attempt
 * is scheduled at nextAttemptAt), `gave-up` (maxAttempts reached) or `cancelled` (the sandbox
 * stopped during the attempt).
 */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'gave-up' | 'cancelled';

/**
 * Why a copy of a notification was sent: `settled` (its payment reached the status it carries),
 * `resend` (asked for: page, code or CLI), `twice-at-once` (the second copy sent beside the
 * first), `late-resend` (sent again after a 200), `receiver-check` (a case of the receiver
 * check).
 */
export type DeliveryReason =
  'settled' | 'resend' | 'twice-at-once' | 'late-resend' | 'receiver-check';

/**
 * What the real service may do to a notification, done on purpose so that a receiver can be
 * seen to do its work once. Any combination; an empty object sends it plainly.
 */
export interface DeliveryFaults {
  /** Send two copies at the same moment, each retried until 200 on its own. */
  twiceAtOnce?: boolean;
  /** Once a copy is answered 200, send the notification again this many milliseconds later. */
  lateResendMs?: number;
  /**
   * Fail this many attempts at the network level before they reach the receiver (nothing is
   * sent); the retries follow as usual.
   */
  networkFailures?: number;
  /** Wait this many milliseconds before the first attempt. */
  delayMs?: number;
}

/** Where armed faults apply: one payment's next delivery, or the next `count` notifications. */
export type DeliveryFaultTarget = { paymentId: string } | { count: number };

/** Faults waiting for the notifications they apply to (the deliveries page lists them). */
export interface ArmedFaults {
  /** For the next notifications the sandbox sends as payments settle, and how many are left. */
  next: { faults: DeliveryFaults; remaining: number } | null;
  /** For one payment's next delivery: when it settles, or its next resend if it has. */
  payments: { paymentId: string; faults: DeliveryFaults }[];
}

/** The likely cause of a failed attempt, in plain words. */
export interface DeliveryHint {
  /**
   * `signature` (401), `path` (404), `method` (405), `too-large` (413), `handler-failed` (5xx),
   * `refused-by-receiver` (another 4xx), `redirect` (3xx), `not-200` (another 2xx),
   * `connection-refused`, `timeout`, `unreachable` (the host name does not resolve),
   * `connection-closed`, `simulated` (the sandbox failed it on purpose).
   */
  cause:
    | 'signature'
    | 'path'
    | 'method'
    | 'too-large'
    | 'handler-failed'
    | 'refused-by-receiver'
    | 'redirect'
    | 'not-200'
    | 'connection-refused'
    | 'timeout'
    | 'unreachable'
    | 'connection-closed'
    | 'simulated';
  /** What probably happened and what to do. */
  text: string;
  /** The troubleshooting section that says more, or null. */
  docs: string | null;
}

/** A webhook request exactly as the sandbox sent it. */
export interface WebhookRequestRecord {
  method: 'PUT';
  url: string;
  /** Every header sent; `Authorization` carries the signature. */
  headers: Record<string, string>;
  /** The body, as the exact UTF-8 text that was signed. */
  body: string;
}

/** One webhook delivery attempt. */
export interface WebhookDeliveryAttempt {
  /** Numbers the attempts of this sandbox from 1: a later attempt has a larger id. */
  id: number;
  paymentId: string;
  /** The status the notification carries (a payment may send several: PENDING, then COMPLETED). */
  paymentStatus: SandboxPaymentStatus;
  /** The receiver address. */
  url: string;
  /** Which copy of the notification: 1 for the first one sent, then one more per resend. */
  copy: number;
  /** Why that copy was sent. */
  reason: DeliveryReason;
  /** 1 for the first attempt of a copy. */
  attempt: number;
  /** ISO 8601 time the attempt started. */
  at: string;
  /** How long the attempt took, in milliseconds, until the answer or the failure. */
  durationMs: number;
  /** The request as sent: the same bytes and signature for every attempt of a notification. */
  request: WebhookRequestRecord;
  /** The receiver's HTTP status, or null when it did not answer. */
  status: number | null;
  /** The start of the receiver's answer as text (at most 4 KiB), or null without an answer. */
  responseText: string | null;
  /** Why there was no answer (connection refused, timeout…), or null. */
  error: string | null;
  /** True when the sandbox failed this attempt on purpose (networkFailures): nothing was sent. */
  simulated: boolean;
  /** The likely cause when the attempt was not a 200, else null. */
  hint: DeliveryHint | null;
  outcome: DeliveryOutcome;
  /** ISO 8601 time of the next attempt when outcome is `retrying`, else null. */
  nextAttemptAt: string | null;
}

/** A case of the receiver check. */
export type ReceiverCheckCaseName =
  'once' | 'twice-at-once' | 'late-resend' | 'network-failures' | 'delay' | 'forged-signature';

/** What the receiver answered in one case of the receiver check. */
export interface ReceiverCheckCase {
  name: ReceiverCheckCaseName;
  /** What the sandbox did, in plain words. */
  description: string;
  /** What a receiver that does its work once answers. */
  expected: string;
  /** The notification's payment id (a new one per case, so the cases do not mix). */
  paymentId: string;
  /** Per copy sent, what the receiver answered to each attempt: a status or the failure. */
  copies: { copy: number; reason: DeliveryReason; answers: string[]; outcome: DeliveryOutcome }[];
  /** Whether the answers were those expected. */
  passed: boolean;
  /** What the answers mean, in plain words. */
  verdict: string;
}

/** The receiver check's report. */
export interface ReceiverCheckReport {
  /** The webhook URL checked. */
  url: string;
  startedAt: string;
  finishedAt: string;
  /** True when every case got the answers expected. */
  passed: boolean;
  cases: ReceiverCheckCase[];
  /** What the check cannot see: the merchant's own side effects. */
  note: string;
}

/** A running sandbox. */
export interface Sandbox {
  /** Base address, e.g. `http://127.0.0.1:4010`: the `baseUrl` for the component. */
  readonly url: string;
  /**
   * The public key webhooks are signed with, as a full PEM ("PUBLIC KEY", SPKI). The
   * endpoint `/.well-known/signature/pem` serves the same key without the BEGIN/END lines.
   */
  readonly publicKey: string;
  /**
   * Signs from now on with a new key (the one prepared on the `/keys` page, or a new one), to
   * rehearse a key rotation; `publicKey` and the endpoint then give it. Resolves with both
   * keys as the endpoint serves them. In memory only: a restart with keyFile uses the file's.
   */
  rotateKey(): Promise<{ publicKey: string; previousPublicKey: string }>;
  /** A ready-made application id; any UUID is accepted as well. */
  readonly applicationId: string;
  /**
   * Moves a pending payment to COMPLETED or FAILED, as the bank page's buttons do, and sends
   * its webhook. A payment already final is left unchanged. Returns the payment.
   * @throws SandboxError for an unknown paymentId or an invalid outcome.
   */
  settlePayment(paymentId: string, outcome: SettleOutcome): SandboxPayment;
  /**
   * Every webhook delivery attempt kept (`deliveryHistory`), oldest first (a copy), each with
   * the request as sent, the answer and, for a failure, a hint at its cause.
   */
  readonly deliveries: readonly WebhookDeliveryAttempt[];
  /**
   * Sends a payment's notification again now, as a new copy: the same bytes and signature, also
   * after the sandbox gave up on it. With faults, breaks this resend on purpose; without, any
   * faults armed for the payment apply. Returns the new copy's number.
   * @throws SandboxError when the payment is unknown, still PENDING, or no webhookUrl is set.
   */
  resendNotification(paymentId: string, faults?: DeliveryFaults): number;
  /**
   * Arms faults for one payment's next delivery (`{ paymentId }`) or for the next notifications
   * the sandbox sends (`{ count }`, by default 1). Arming the next notifications again replaces
   * the earlier ones; `breakDeliveries({}, { count: 0 })` disarms them.
   * @throws SandboxError for invalid faults or an unknown payment.
   */
  breakDeliveries(faults: DeliveryFaults, target?: DeliveryFaultTarget): ArmedFaults;
  /** The faults armed and not yet used. */
  readonly armedFaults: ArmedFaults;
  /**
   * Runs the receiver check against `webhookUrl`: one signed notification per case (a single
   * delivery, twice at once, a late resend, network failures, a delay, a forged signature)
   * and what the receiver answered to each. A check already running is joined.
   * @throws SandboxError when no webhookUrl is configured.
   */
  checkReceiver(): Promise<ReceiverCheckReport>;
  /**
   * A late COMPLETED for a past payment, as from a bank that confirms after the merchant gave
   * up: the payment (PENDING, left undecided, or FAILED) is COMPLETED now and its notification
   * sent. Returns the payment.
   * @throws SandboxError `unknown-payment`, or `payment-completed` for one already COMPLETED or
   * SETTLED (resend its notification instead).
   */
  completeLate(paymentId: string): SandboxPayment;
  /**
   * A second paid attempt for the order of a past payment, as when a shopper pays in two tabs:
   * a new payment (a new paymentId, and a new merchantPaymentId when the first had one) with
   * the same amount, reference, metadata, bank and application, COMPLETED at once with its
   * notification. Returns the new payment.
   * @throws SandboxError `unknown-payment`.
   */
  payAgain(paymentId: string): SandboxPayment;
  /** The steps scheduled and not taken yet, soonest first (a copy). */
  readonly scheduled: readonly ScheduledStep[];
  /** The payments kept (`maxPayments`, the latest) by paymentId, oldest first (a copy). */
  readonly payments: ReadonlyMap<string, SandboxPayment>;
  /**
   * Closes the server and its connections, cancels pending retries and the scheduled steps;
   * resolves when done.
   */
  stop(): Promise<void>;
}
