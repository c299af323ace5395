// The result page's question, `GET ?paymentId=…&merchantPaymentId=…`, answered from the store
// the webhook route records outcomes in: JSON, or Server-Sent Events for the page's
// EventSource. The Node runtime, in the same process as the webhook route, so both see the one
// in-memory store (lib/store.ts) and orders (lib/orders.ts); per request, never cached.
import { createFetchPaymentStatusHandler } from 'servicepay/webhook';
import { paidFor } from '../../../../lib/orders';
import { store } from '../../../../lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const status = createFetchPaymentStatusHandler({
  store,
  // What was paid (amount, payee, reference), which the result page shows once paid: from the
  // order this server holds (lib/orders.ts).
  expose: paidFor,
});

export async function GET(request: Request): Promise<Response> {
  return status(request);
}
