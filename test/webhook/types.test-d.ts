// Type tests, checked by `tsc -p tsconfig.json --noEmit`: the public types accept what the
// spec allows and reject wrong option keys and values.
import type { KeyObject } from 'node:crypto';
import * as opentelemetry from '@opentelemetry/api';
import { trace } from '@opentelemetry/api';
import { expectTypeOf } from 'vitest';
import {
  createFetchWebhookHandler,
  createPaymentStatusHandler,
  createWebhookHandler,
  fetchPublicKey,
  listenWebhook,
  isFinalNotification,
  MemoryIdempotencyStore,
  parseWebhookNotification,
  signWebhookPayload,
  verifyWebhookSignature,
} from '../../src/webhook/index';
import type {
  ExpectedPayment,
  FinalNotification,
  OtherStatusNotification,
  PaymentMismatch,
  IdempotencyClaim,
  IdempotencyStore,
  OpenTelemetryApi,
  WebhookHandler,
  WebhookNotification,
  WebhookServer,
} from '../../src/webhook/index';
import * as web from '../../src/webhook/web';
import type { PaymentReceipt } from '../../src/core/index';

declare const key: KeyObject;
declare const cryptoKey: CryptoKey;

expectTypeOf(verifyWebhookSignature('{}', 'SHA256withRSA x', 'key')).toEqualTypeOf<boolean>();
expectTypeOf(verifyWebhookSignature(new Uint8Array(), null, key)).toEqualTypeOf<boolean>();
expectTypeOf(verifyWebhookSignature(new ArrayBuffer(1), undefined, 'k')).toEqualTypeOf<boolean>();
expectTypeOf(web.verifyWebhookSignature('{}', null, cryptoKey)).toEqualTypeOf<Promise<boolean>>();
// @ts-expect-error a KeyObject does not exist on edge runtimes
void web.verifyWebhookSignature('{}', null, key);
// @ts-expect-error the body is bytes or the exact string, never a parsed object
verifyWebhookSignature({ paymentId: 'p' }, 'SHA256withRSA x', 'k');
expectTypeOf(signWebhookPayload('{}', key)).toEqualTypeOf<string>();
expectTypeOf(fetchPublicKey({ environment: 'SANDBOX' })).toEqualTypeOf<Promise<string>>();
// @ts-expect-error environments are SANDBOX and LIVE
void fetchPublicKey({ environment: 'PRODUCTION' });

const n = parseWebhookNotification('{}');
expectTypeOf(n).toEqualTypeOf<WebhookNotification>();
// Any status the service sends (SETTLED, PENDING, ...); a switch over the final ones compiles.
expectTypeOf(n.paymentStatus).toEqualTypeOf<'COMPLETED' | 'FAILED' | (string & {})>();
function settle(notification: WebhookNotification): 'paid' | 'failed' | 'other' {
  switch (notification.paymentStatus) {
    case 'COMPLETED':
      expectTypeOf(notification.paymentRequest.amount).toEqualTypeOf<number>();
      return 'paid';
    case 'FAILED':
      return 'failed';
    default:
      return 'other';
  }
}
void settle;
if (isFinalNotification(n)) {
  expectTypeOf(n).toEqualTypeOf<FinalNotification>();
  expectTypeOf(n.paymentStatus).toEqualTypeOf<'COMPLETED' | 'FAILED'>();
  // @ts-expect-error a final notification is COMPLETED or FAILED, never SETTLED
  void (n.paymentStatus === 'SETTLED');
}
expectTypeOf<OtherStatusNotification['paymentStatus']>().toEqualTypeOf<string & {}>();
expectTypeOf(n.merchantPaymentId).toEqualTypeOf<string | null | undefined>();
expectTypeOf(n.paymentRequest.amount).toEqualTypeOf<number>();

const handler = createWebhookHandler({
  expectedPayment: 'unreconciled',
  publicKey: 'MIIB...',
  onNotification: async (notification, context) => {
    expectTypeOf(notification).toEqualTypeOf<WebhookNotification>();
    expectTypeOf(context.idempotencyKey).toEqualTypeOf<string>();
  },
  store: new MemoryIdempotencyStore({ maxEntries: 100 }),
  maxBodyBytes: 65536,
  allowedSourceAddresses: ['203.0.113.7'],
  onError: (error, context) => {
    expectTypeOf(context.status).toEqualTypeOf<number>();
  },
});
expectTypeOf(handler).toEqualTypeOf<WebhookHandler>();

createWebhookHandler({
  expectedPayment: 'unreconciled',
  onNotification: () => {},
  publicKey: 'k',
  // @ts-expect-error misspelled option
  maxBodySize: 10,
});
createWebhookHandler({
  expectedPayment: 'unreconciled',
  onNotification: () => {},
  // @ts-expect-error environments are SANDBOX and LIVE
  environment: 'TEST',
});
web.createFetchWebhookHandler({
  expectedPayment: 'unreconciled',
  onNotification: () => {},
  publicKey: cryptoKey,
  getSourceAddress: (request) => request.headers.get('x-real-ip'),
});
createFetchWebhookHandler({
  expectedPayment: 'unreconciled',
  onNotification: () => {},
  publicKey: key,
});

// Key rotation: several keys; absent ones (an unset variable) are allowed in the list.
createWebhookHandler({
  expectedPayment: 'unreconciled',
  onNotification: () => {},
  publicKey: [process.env.SERVICEPAY_PUBLIC_KEY, process.env.SERVICEPAY_NEXT_PUBLIC_KEY],
});
web.createFetchWebhookHandler({
  expectedPayment: 'unreconciled',
  onNotification: () => {},
  publicKey: [cryptoKey, 'MIIB...'],
});

// Reconciliation: sync or async, null for no order; onMismatch gets the reason.
declare const orders: Map<string, ExpectedPayment>;
createWebhookHandler({
  publicKey: 'k',
  expectedPayment: (notification) => {
    expectTypeOf(notification).toEqualTypeOf<FinalNotification>();
    return orders.get(notification.merchantPaymentId ?? '') ?? null;
  },
  onMismatch: (mismatch) => {
    expectTypeOf(mismatch).toEqualTypeOf<PaymentMismatch>();
    expectTypeOf(mismatch.reason).toEqualTypeOf<
      'already-paid' | 'order-closed' | 'no-order' | 'currency' | 'amount' | 'reference'
    >();
    expectTypeOf(mismatch.paidBy).toEqualTypeOf<string | null>();
  },
  onNotification: (_notification, context) => {
    expectTypeOf(context.orderPaidBy).toEqualTypeOf<string | null>();
  },
});
web.createFetchWebhookHandler({
  publicKey: cryptoKey,
  onNotification: () => {},
  expectedPayment: async () => ({ amount: 12.5, currency: 'GBP', reference: 'ORDER-1' }),
});
// A database row's shapes: a NUMERIC amount as a decimal string, a nullable currency; the order.
createWebhookHandler({
  publicKey: 'k',
  onNotification: () => {},
  expectedPayment: () => ({
    amount: '12.50',
    currency: null,
    orderId: 'o-1',
    acceptsPayment: true,
  }),
});
createWebhookHandler({
  publicKey: 'k',
  onNotification: () => {},
  // @ts-expect-error acceptsPayment is true or false, never a status word
  expectedPayment: () => ({ amount: 12.5, acceptsPayment: 'expired' }),
});
createWebhookHandler({
  publicKey: 'k',
  onNotification: () => {},
  // @ts-expect-error orderId is a string (String(id) for a number)
  expectedPayment: () => ({ amount: 12.5, orderId: 42 }),
});

/** A shared store implements the contract with promises. */
const redisLike: IdempotencyStore = {
  claim: async (): Promise<IdempotencyClaim> => ({ state: 'claimed', token: 'a' }),
  renew: async () => true,
  complete: async () => true,
  release: async () => false,
};
void redisLike;
const wrong: IdempotencyStore = {
  // @ts-expect-error claim answers one of the three states, a claim with its token
  claim: () => ({ state: 'claimed' }),
  renew: () => true,
  complete: () => true,
  release: () => true,
};
void wrong;
const untokened: IdempotencyStore = {
  claim: () => ({ state: 'completed' }),
  renew: () => true,
  // @ts-expect-error complete says whether the token owned the key
  complete: () => {},
  release: () => true,
};
void untokened;

// listenWebhook: the receiver's options plus where to listen; the key may be absent (it warns).
expectTypeOf(
  listenWebhook({
    expectedPayment: 'unreconciled',
    port: 0,
    publicKey: process.env.SERVICEPAY_PUBLIC_KEY,
    onNotification: () => {},
  }),
).toEqualTypeOf<Promise<WebhookServer>>();
// @ts-expect-error port is required
void listenWebhook({ expectedPayment: 'unreconciled', publicKey: 'k', onNotification: () => {} });
// @ts-expect-error the server is node:http only, not in the edge entry
void web.listenWebhook;

// telemetry: the @opentelemetry/api module itself, or its trace, context and metrics, satisfy
// the structural type; the status handlers take it too; a part of it does not.
expectTypeOf(opentelemetry).toExtend<OpenTelemetryApi>();
expectTypeOf({
  trace: opentelemetry.trace,
  context: opentelemetry.context,
  metrics: opentelemetry.metrics,
}).toExtend<OpenTelemetryApi>();
void createWebhookHandler({
  expectedPayment: 'unreconciled',
  publicKey: 'k',
  onNotification: () => {},
  telemetry: opentelemetry,
});
void web.createFetchPaymentStatusHandler({
  store: new MemoryIdempotencyStore(),
  telemetry: opentelemetry,
});
void createWebhookHandler({
  expectedPayment: 'unreconciled',
  publicKey: 'k',
  onNotification: () => {},
  // @ts-expect-error the whole API, not its trace part alone
  telemetry: trace,
});

// expose's `paid` (issue 47): what the result page shows, typed; any other field is the merchant's.
{
  const store = new MemoryIdempotencyStore();
  createPaymentStatusHandler({
    store,
    expose: (outcome) =>
      outcome.status === 'COMPLETED'
        ? { paid: { amount: '12.50', payee: 'Example Coffee Co.', reference: 'ORDER-1042' }, n: 7 }
        : undefined,
  });
  createPaymentStatusHandler({
    store,
    expose: async () => ({ paid: { reference: 'ORDER-1042' } }),
  });
  // @ts-expect-error paid's fields are amount, payee and reference
  createPaymentStatusHandler({ store, expose: () => ({ paid: { total: 12.5 } }) });
  // @ts-expect-error the amount is a number of pounds or a decimal string
  createPaymentStatusHandler({ store, expose: () => ({ paid: { amount: [12, 50] } }) });
  const paid: PaymentReceipt = { amount: 12.5 };
  // @ts-expect-error the page's receipt holds the amount as a number only
  const fromPage: PaymentReceipt = { amount: '12.50' };
  void paid;
  void fromPage;
}
