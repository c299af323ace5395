/**
 * A payment's life after its creation, as the sandbox plays it: the shopper's decision on the
 * bank page, the step that follows on the sandbox's clock (the authorisation window closing,
 * the bank's check ending, the settlement), a late COMPLETED and a second paid attempt for an
 * order. Every change of status goes through `move`, which sends its notification; each is
 * guarded by the statuses it starts from, so a step overtaken by another (a payment settled
 * from code meanwhile) does nothing.
 *
 * The steps' timers are a scheduler's (deliveries/scheduler.ts): unref'd, and cancelled by the
 * sandbox's stop. Their waits are the options', divided by the time scale.
 */
import { randomUUID } from 'node:crypto';
import type { Scheduler } from '../deliveries/scheduler';
import { SandboxError, unknownPayment } from '../api/errors';
import { createListeners } from '../deliveries/listeners';
import {
  BANK_ERROR_DESCRIPTION,
  EXPIRED_DESCRIPTION,
  REJECTED_DESCRIPTION,
} from '../deliveries/notification';
import type { ResolvedOptions } from '../api/options';
import type { PaymentStore } from './store';
import type {
  BankDecision,
  SandboxPayment,
  SandboxPaymentStatus,
  ScheduledStep,
} from '../api/types';

type Waits = 'authorisationWindowMs' | 'bankCheckMs' | 'settleAfterMs';

/** A step: from which status, to which, why, and after which option's wait. */
type Step = [
  from: SandboxPaymentStatus,
  to: ScheduledStep['status'],
  ScheduledStep['reason'],
  Waits,
];

/**
 * What each decision of the bank page does: the status it moves the payment to now (with the
 * description of a failure), whether the bank tells of it as PENDING first, and the step it
 * schedules. `approve-pending` and `abandon` leave the payment PENDING until their step.
 */
const DECISIONS: Record<
  BankDecision,
  { now?: SandboxPaymentStatus; description?: string; pending?: true; step?: Step }
> = {
  approve: { now: 'COMPLETED' },
  reject: { now: 'FAILED', description: REJECTED_DESCRIPTION },
  error: { now: 'FAILED', description: BANK_ERROR_DESCRIPTION },
  abandon: {
    description: EXPIRED_DESCRIPTION,
    step: ['PENDING', 'FAILED', 'authorisation-window', 'authorisationWindowMs'],
  },
  'approve-pending': {
    pending: true,
    step: ['PENDING', 'COMPLETED', 'bank-check', 'bankCheckMs'],
  },
  'approve-settles-later': {
    now: 'COMPLETED',
    step: ['COMPLETED', 'SETTLED', 'settlement', 'settleAfterMs'],
  },
};

export const isBankDecision = (value: unknown): value is BankDecision =>
  typeof value === 'string' && Object.hasOwn(DECISIONS, value);

export interface Lifecycle {
  /**
   * Moves a payment to `status` when it is in one of `from` (PENDING by default) and sends the
   * notification of its new status. Undefined for an unknown id.
   */
  move(
    paymentId: string,
    status: SandboxPaymentStatus,
    errorDescription?: string | null,
    from?: readonly SandboxPaymentStatus[],
  ): SandboxPayment | undefined;
  /**
   * Applies the bank page's decision to a PENDING payment not decided yet (the first decision
   * stands). Undefined for an unknown id.
   */
  decide(paymentId: string, decision: BankDecision): SandboxPayment | undefined;
  completeLate(paymentId: string): SandboxPayment;
  /** The second paid attempt: the new payment. */
  payAgain(paymentId: string): SandboxPayment;
  /** The steps still to take (their payment still where they start from), soonest first. */
  scheduled(): ScheduledStep[];
  /** Calls the listener when the steps change (one scheduled, taken or overtaken). */
  subscribe(listener: () => void): () => void;
}

export function createLifecycle(parts: {
  payments: PaymentStore;
  /** Sends the notification of a payment's status (the deliverer, through server/service.ts). */
  notify(payment: SandboxPayment): void;
  options: Pick<ResolvedOptions, Waits | 'scaled' | 'log'>;
  scheduler: Scheduler;
  now?: () => Date;
}): Lifecycle {
  const { payments, notify, options, scheduler } = parts;
  const { log } = options;
  const now = parts.now ?? (() => new Date());
  /** Each step with the status its payment must still be in. */
  const steps = new Set<{ step: ScheduledStep; from: SandboxPaymentStatus }>();
  // A page's event stream that broke must not stop a payment's life.
  const listeners = createListeners();
  const changed = () => listeners.emit();

  const move: Lifecycle['move'] = (paymentId, status, errorDescription = null, from) => {
    const result = payments.settle(paymentId, status, errorDescription, from);
    if (result?.changed) {
      log(`payment ${paymentId} ${status}${status === 'FAILED' ? `: ${errorDescription}` : ''}`);
      notify(result.payment);
      changed();
    }
    return result?.payment;
  };

  /** Moves the payment after the step's wait on the sandbox's clock, if it is still in `from`. */
  function schedule(paymentId: string, [from, to, reason, wait]: Step, description?: string) {
    const delay = options.scaled(options[wait]);
    const at = new Date(now().getTime() + delay).toISOString();
    const entry = { step: { paymentId, status: to, reason, at }, from };
    steps.add(entry);
    const done = () => steps.delete(entry);
    scheduler.schedule(
      () => {
        done();
        move(paymentId, to, description, [from]);
        // Taken, or overtaken: either way the steps changed.
        changed();
      },
      delay,
      done,
    );
    log(`payment ${paymentId}: ${to} (${reason}) scheduled at ${at}`);
    changed();
  }

  return {
    move,
    decide(paymentId, decision) {
      const payment = payments.get(paymentId);
      if (payment?.status !== 'PENDING' || payment.decision !== null) return payment;
      payments.decide(paymentId, decision);
      log(`payment ${paymentId}: the shopper chose ${decision}`);
      const { now: status, description, pending, step } = DECISIONS[decision];
      if (status) move(paymentId, status, description);
      // The bank tells of an approval it is still checking: PENDING, as the live service does.
      if (pending) notify(payments.get(paymentId)!);
      if (step) schedule(paymentId, step, description);
      return payments.get(paymentId);
    },
    completeLate(paymentId) {
      const payment = payments.get(paymentId);
      if (payment === undefined) throw unknownPayment(paymentId);
      if (payment.status === 'COMPLETED' || payment.status === 'SETTLED') {
        throw new SandboxError(
          'payment-completed',
          `the payment ${paymentId} is already ${payment.status}, so a late COMPLETED would be the same notification again; resend it instead.`,
        );
      }
      log(`payment ${paymentId}: a late COMPLETED (it was ${payment.status})`);
      return move(paymentId, 'COMPLETED', null, ['PENDING', 'FAILED'])!;
    },
    payAgain(paymentId) {
      const first = payments.get(paymentId);
      if (first === undefined) throw unknownPayment(paymentId);
      // The order's second attempt, as the component makes one: its own merchantPaymentId.
      const again = payments.create({
        ...first,
        merchantPaymentId: first.merchantPaymentId === null ? null : randomUUID(),
      });
      log(`payment ${again.paymentId}: a second paid attempt for the order of ${paymentId}`);
      payments.decide(again.paymentId, 'approve');
      return move(again.paymentId, 'COMPLETED')!;
    },
    scheduled() {
      return [...steps]
        .filter(({ step, from }) => payments.get(step.paymentId)?.status === from)
        .map(({ step }) => ({ ...step }))
        .sort((a, b) => a.at.localeCompare(b.at));
    },
    subscribe: listeners.subscribe,
  };
}
