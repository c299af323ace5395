/**
 * The payments of a running sandbox and their one transition: PENDING → COMPLETED | FAILED.
 * Callers get copies, so nothing outside can change a payment (or the webhook built from it).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ValidInitiation } from './initiation';
import type { FinalPaymentStatus, SandboxPayment } from './types';

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

export function createPaymentStore(now: () => Date = () => new Date()): PaymentStore {
  const payments = new Map<string, SandboxPayment>();
  const keys = new Map<string, { fingerprint: string; paymentId: string }>();
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

/**
 * Identifies a request body for Idempotency-Key comparison: the same JSON value gives the same
 * fingerprint whatever its key order or whitespace, so a client that re-serialises its retry
 * is not refused.
 */
export function requestFingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
