/**
 * The sandbox's payments: a payment request that passed validation, and the store that keeps
 * the newest of them with their Idempotency-Keys. Its own file, so that what acts on payments
 * (service.ts, the commands, the contract) imports it without importing each other.
 */
import { randomUUID } from 'node:crypto';
import type { AgentType, Environment } from '../core/index';
import type { FinalPaymentStatus, SandboxPayment } from './types';

/** A payment request that passed validation (contract/validation.ts): what a new payment is made of. */
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
   * Settles a PENDING payment; a final one is left as it is (`changed: false`).
   * Undefined for an unknown id.
   */
  settle(
    paymentId: string,
    status: FinalPaymentStatus,
    errorDescription: string | null,
  ): { payment: SandboxPayment; changed: boolean } | undefined;
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
    settle(paymentId, status, errorDescription) {
      const payment = payments.get(paymentId);
      if (payment === undefined) return undefined;
      if (payment.status !== 'PENDING') return { payment: copy(payment), changed: false };
      payment.status = status;
      payment.errorDescription = status === 'FAILED' ? errorDescription : null;
      payment.settledAt = now().toISOString();
      return { payment: copy(payment), changed: true };
    },
  };
}
