// The result page's question, `GET ?paymentId=…&merchantPaymentId=…`, answered from the store
// the webhook route records outcomes in: JSON, or Server-Sent Events for the page's
// EventSource. The Node runtime, in the same process as the webhook route, so both see the one
// in-memory store (lib/store.ts); per request, never cached.
import { createFetchPaymentStatusHandler } from 'servicepay/webhook';
import { store } from '../../../../lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const status = createFetchPaymentStatusHandler({ store });

export async function GET(request: Request): Promise<Response> {
  return status(request);
}
