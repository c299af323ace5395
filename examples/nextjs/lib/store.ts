// The store the webhook route and the payment status route share: the receiver records each
// payment's outcome in it once onNotification succeeded, and the status route reads it and
// streams it to the result page. Kept on globalThis, as lib/orders.ts keeps the orders, because
// Next.js loads each route handler as a module instance of its own in one server process: two
// `new MemoryIdempotencyStore()` would be two stores, and the result page would wait for ever.
// In memory it serves one process; a deployment with several instances (or serverless) passes
// both routes createPostgresStore or createRedisStore instead (docs/stores.md).
import 'server-only';
import { MemoryIdempotencyStore } from 'servicepay/webhook';

const shared = globalThis as typeof globalThis & {
  servicepayExampleStore?: MemoryIdempotencyStore;
};

export const store = (shared.servicepayExampleStore ??= new MemoryIdempotencyStore());
