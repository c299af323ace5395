/**
 * The webhook payload (spec 2.1), built with its keys in the order the service sends them.
 * JSON.stringify keeps insertion order, so the bytes are predictable and match the shared
 * signature vectors' bodies.
 */
import { randomUUID } from 'node:crypto';
import type { FinalPaymentStatus, SandboxPayment } from './types';

/** The body of a webhook notification, as the sandbox sends it. */
export interface SandboxWebhookPayload {
  paymentId: string;
  merchantPaymentId: string | null;
  paymentStatus: FinalPaymentStatus;
  /** Null unless paymentStatus is FAILED. */
  errorDescription: string | null;
  paymentRequest: { amount: number; currency: 'GBP'; reference: string };
  /** The metadata given at creation, unchanged, or null. */
  paymentMetadata: Record<string, unknown> | null;
  /** Always null: refunds are not simulated. */
  paymentRefundData: null;
}

/** The payload for a payment that reached a final status. */
export function webhookPayload(
  payment: SandboxPayment & { status: FinalPaymentStatus },
): SandboxWebhookPayload {
  return {
    paymentId: payment.paymentId,
    merchantPaymentId: payment.merchantPaymentId,
    paymentStatus: payment.status,
    errorDescription: payment.status === 'FAILED' ? payment.errorDescription : null,
    paymentRequest: {
      amount: payment.amount,
      currency: payment.currency,
      reference: payment.reference,
    },
    paymentMetadata: payment.metadata,
    paymentRefundData: null,
  };
}

/** Overrides for a manual test payload; anything not given gets an example value. */
export interface TestWebhookPayloadOverrides {
  /** @default a new random UUID */
  paymentId?: string;
  /** @default a new random UUID */
  merchantPaymentId?: string | null;
  /** @default 12.5 */
  amount?: number;
  /** @default 'ORDER-1042' */
  reference?: string;
  /** @default a small nested example object */
  metadata?: Record<string, unknown> | null;
  /** Only for FAILED. @default 'The bank reported an error' */
  errorDescription?: string;
}

/** The description the sandbox gives a payment failed by the bank. */
export const BANK_ERROR_DESCRIPTION = 'The bank reported an error';
/** The description the sandbox gives a payment the shopper rejected. */
export const REJECTED_DESCRIPTION = 'The payment was rejected by the user';

/**
 * A manual test payload as in spec 5.3: COMPLETED with errorDescription null, or FAILED with a
 * non-null errorDescription. Serialise it once with JSON.stringify, then sign and send those
 * exact bytes.
 */
export function buildTestWebhookPayload(
  status: FinalPaymentStatus,
  overrides: TestWebhookPayloadOverrides = {},
): SandboxWebhookPayload {
  const metadata =
    overrides.metadata !== undefined
      ? overrides.metadata
      : { orderId: 1042, basket: { items: [{ sku: 'A-1', qty: 2 }] }, source: 'send-webhook' };
  return {
    paymentId: overrides.paymentId ?? randomUUID(),
    merchantPaymentId:
      overrides.merchantPaymentId !== undefined ? overrides.merchantPaymentId : randomUUID(),
    paymentStatus: status,
    errorDescription:
      status === 'FAILED' ? (overrides.errorDescription ?? BANK_ERROR_DESCRIPTION) : null,
    paymentRequest: {
      amount: overrides.amount ?? 12.5,
      currency: 'GBP',
      reference: overrides.reference ?? 'ORDER-1042',
    },
    paymentMetadata: metadata,
    paymentRefundData: null,
  };
}
