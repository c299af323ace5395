/**
 * The sandbox's payments: a payment request that passed validation, and the store that keeps
 * the newest of them with their Idempotency-Keys and moves them between statuses (the moves
 * themselves, and what they send, are lifecycle.ts's). Its own file, so that what acts on
 * payments (server/service.ts, the commands, the contract) imports it without importing each
 * other.
 */
import { randomUUID } from 'node:crypto';
import type { AgentType, Environment } from '../../core/index';
import type { BankDecision, SandboxPayment, SandboxPaymentStatus } from '../api/types';

/** A payment request that passed validation (contract/payments.ts): what a new payment is made of. */
export interface ValidInitiation {
  environment: Environment;
  applicationId: string;
  institutionId: string;
  amount: number;
  reference: string;
  merchantPaymentId: string | null;
  metadata: Record<string, unknown> | null;
  agentType: AgentType;
}

/** What a repeated Idempotency-Key means for a request. */
export type IdempotencyMatch =
  { kind: 'new' } | { kind: 'replay'; payment: SandboxPayment } | { kind: 'conflict' };

export interface PaymentStore {
  /** The answer an Idempotency-Key already seen dictates, given the new request's fingerprint. */
  matchIdempotencyKey(key: string, fingerprint: string): IdempotencyMatch;
  /** Records a new PENDING payment (and its Idempotency-Key, when there is one). */
  create(
    request: ValidInitiation,
    idempotency?: { key: string; fingerprint: string },
  ): SandboxPayment;
  get(paymentId: string): SandboxPayment | undefined;
  list(): SandboxPayment[];
  /**
   * Moves a payment to `status` when it is in one of `from` (a PENDING one, by default); any
   * other is left as it is (`changed: false`). Undefined for an unknown id.
   */
  settle(
    paymentId: string,
    status: SandboxPaymentStatus,
    errorDescription: string | null,
    from?: readonly SandboxPaymentStatus[],
  ): { payment: SandboxPayment; changed: boolean } | undefined;
  /** Records the bank page's decision on a payment. */
  decide(paymentId: string, decision: BankDecision): void;
}

/** The sandbox's payments, at most `kept` of them: the oldest are forgotten first. */
export function createPaymentStore(kept: number, now: () => Date = () => new Date()): PaymentStore {
  const payments = new Map<string, SandboxPayment>();
  const keys = new Map<string, { fingerprint: string; paymentId: string }>();
  /** Each payment's Idempotency-Key, to forget with it. */
  const keyOf = new Map<string, string>();
  const copy = (payment: SandboxPayment): SandboxPayment => structuredClone(payment);

  return {
    matchIdempotencyKey(key, fingerprint) {
      const seen = keys.get(key);
      if (seen === undefined) return { kind: 'new' };
      if (seen.fingerprint !== fingerprint) return { kind: 'conflict' };
      return { kind: 'replay', payment: copy(payments.get(seen.paymentId)!) };
    },
    create(request, idempotency) {
      const payment: SandboxPayment = {
        paymentId: randomUUID(),
        merchantPaymentId: request.merchantPaymentId,
        applicationId: request.applicationId,
        environment: request.environment,
        institutionId: request.institutionId,
        amount: request.amount,
        currency: 'GBP',
        reference: request.reference,
        metadata: request.metadata === null ? null : structuredClone(request.metadata),
        agentType: request.agentType,
        status: 'PENDING',
        decision: null,
        errorDescription: null,
        createdAt: now().toISOString(),
        settledAt: null,
      };
      payments.set(payment.paymentId, payment);
      if (idempotency) {
        keys.set(idempotency.key, {
          fingerprint: idempotency.fingerprint,
          paymentId: payment.paymentId,
        });
        keyOf.set(payment.paymentId, idempotency.key);
      }
      for (const [oldest] of payments) {
        if (payments.size <= kept) break;
        payments.delete(oldest);
        keys.delete(keyOf.get(oldest)!);
        keyOf.delete(oldest);
      }
      return copy(payment);
    },
    get(paymentId) {
      const payment = payments.get(paymentId);
      return payment && copy(payment);
    },
    list() {
      return Array.from(payments.values(), copy);
    },
    settle(paymentId, status, errorDescription, from = ['PENDING']) {
      const payment = payments.get(paymentId);
      if (payment === undefined) return undefined;
      if (!from.includes(payment.status)) return { payment: copy(payment), changed: false };
      payment.status = status;
      payment.errorDescription = status === 'FAILED' ? errorDescription : null;
      // When it reached COMPLETED or FAILED: a SETTLED payment had reached COMPLETED before.
      if (status !== 'SETTLED') payment.settledAt = now().toISOString();
      return { payment: copy(payment), changed: true };
    },
    decide(paymentId, decision) {
      const payment = payments.get(paymentId);
      if (payment !== undefined) payment.decision = decision;
    },
  };
}
