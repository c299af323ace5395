// The webhook receiver, on the Node runtime (the default for route handlers; said explicitly
// because the receiver uses node:crypto). The handler is created at module level: Next imports
// this module while building, when no secret is present, and a missing key is only reported
// (a warning now, a 500 naming the variable at the first delivery), never thrown at import.
import { createFetchWebhookHandler } from 'servicepay/webhook';
import { recordPayment } from '../../../../lib/orders';
import { store } from '../../../../lib/store';

export const runtime = 'nodejs';

const receive = createFetchWebhookHandler({
  // The service's public key, as its key endpoint serves it (quote a multi-line value in .env).
  publicKey: process.env.SERVICEPAY_PUBLIC_KEY,
  // Shared with the payment status route: the outcome the result page waits for is recorded
  // here, after onNotification succeeded.
  store,
  // Called once per distinct notification, after its signature was verified on the exact bytes.
  onNotification: (notification) => recordPayment(notification),
});

export async function PUT(request: Request): Promise<Response> {
  return receive(request);
}
