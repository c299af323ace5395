// A Next.js route module written as docs/webhooks.md shows it: the handler is created when the
// module is imported, which `next build` does with no secrets in the environment.
import { createFetchWebhookHandler } from '../../../src/webhook/index';

export const PUT = createFetchWebhookHandler({
  publicKey: process.env.SERVICEPAY_PUBLIC_KEY,
  // A test double of a route: what it shows is the build without secrets, not the orders.
  expectedPayment: 'unreconciled',
  onNotification: async () => {},
  onError: (error, context) => {
    (globalThis as { routeErrors?: unknown[] }).routeErrors?.push({ error, context });
  },
});
