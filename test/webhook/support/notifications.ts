import { randomUUID } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { signWebhookPayload } from '../../../src/webhook/index';
import type { WebhookNotification } from '../../../src/webhook/index';

/** A COMPLETED notification as in spec 2.1, with a fresh paymentId. */
export function notification(overrides: Partial<WebhookNotification> = {}): WebhookNotification {
  return {
    paymentId: randomUUID(),
    merchantPaymentId: randomUUID(),
    paymentStatus: 'COMPLETED',
    errorDescription: null,
    paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1' },
    paymentMetadata: { cart: { items: [{ sku: 'A1', qty: 2 }] } },
    paymentRefundData: null,
    ...overrides,
  };
}

export interface SignedDelivery {
  body: string;
  authorization: string;
}

/** The body as the service sends it, and its Authorization header. */
export function signed(value: unknown, privateKey: KeyObject | string): SignedDelivery {
  const body = typeof value === 'string' ? value : JSON.stringify(value);
  return { body, authorization: signWebhookPayload(body, privateKey) };
}
