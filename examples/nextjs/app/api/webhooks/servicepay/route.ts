// The webhook receiver, on the Node runtime (the default for route handlers; said explicitly
// because the receiver uses node:crypto). The handler is created at module level: Next imports
// this module while building, when no secret is present, and a missing key is only reported
// (a warning now, a 500 naming the variable at the first delivery), never thrown at import.
import { createFetchWebhookHandler } from 'servicepay/webhook';
import { expectedPayment, recordPayment, reviewOrder } from '../../../../lib/orders';
import { store } from '../../../../lib/store';

export const runtime = 'nodejs';

const receive = createFetchWebhookHandler({
  // The service's public key, as its key endpoint serves it (quote a multi-line value in .env).
  publicKey: process.env.SERVICEPAY_PUBLIC_KEY,
  // Shared with the payment status route: the outcome the result page waits for is recorded
  // here, after onNotification succeeded.
  store,
  // The signature proves the service sent it; only the shop can prove it pays for the right
  // order. The payment was made in the shopper's browser, so a COMPLETED one is compared with
  // the order it names, as the server made it; one that does not match is recorded
  // NEEDS_REVIEW (the result page says the shop will check it) and goes to onMismatch.
  expectedPayment,
  onMismatch: reviewOrder,
  // Called once per distinct notification that matched (or FAILED), after its signature was
  // verified on the exact bytes.
  onNotification: (notification) => recordPayment(notification),
});

export async function PUT(request: Request): Promise<Response> {
  return receive(request);
}
