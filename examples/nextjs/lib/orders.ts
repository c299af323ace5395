// The shop's orders. A real shop keeps them in its database; this example keeps them in memory,
// on globalThis because Next.js loads route handlers and pages as separate module instances in
// one server process. Only a verified webhook marks an order paid: the shopper's return from the
// bank proves nothing (anyone can open the return address). The result page does not read
// them: it asks the status route, which the receiver's store answers (lib/store.ts).
import type { WebhookNotification } from 'servicepay/webhook';

export const ORDER = {
  item: 'Single-origin coffee beans, 1 kg',
  amount: 12.5,
  reference: 'COFFEE-1042',
} as const;

export interface PaymentRecord {
  paymentId: string;
  merchantPaymentId: string | null;
  status: 'paid' | 'not-completed';
  amount: number;
  reference: string | null;
  /** How many times the webhook route ran the handler for this payment (exactly once). */
  handled: number;
}

const shared = globalThis as typeof globalThis & {
  servicepayExampleOrders?: Map<string, PaymentRecord>;
};
const payments = (shared.servicepayExampleOrders ??= new Map<string, PaymentRecord>());

/** Called by the webhook route with a verified notification. */
export function recordPayment(notification: WebhookNotification): void {
  const previous = payments.get(notification.paymentId);
  payments.set(notification.paymentId, {
    paymentId: notification.paymentId,
    merchantPaymentId: notification.merchantPaymentId ?? null,
    status: notification.paymentStatus === 'COMPLETED' ? 'paid' : 'not-completed',
    amount: notification.paymentRequest.amount,
    reference: notification.paymentRequest.reference ?? null,
    handled: (previous?.handled ?? 0) + 1,
  });
}
