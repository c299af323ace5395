// Type tests, checked by `tsc -p tsconfig.json --noEmit` (issue 47, item 2): unsafe is a
// decision, not an omission. Every way of creating a receiver needs `expectedPayment`, either a
// lookup of the order or the opt-out spelled as its value, `'unreconciled'`; a receiver with
// neither does not compile. (At run time, in plain JavaScript, one with neither still works
// and says so once: test/webhook/receiving/reconcile.test.ts.)
import {
  createFetchWebhookHandler,
  createWebhookHandler,
  listenWebhook,
} from '../../../src/webhook/index';
import type {
  ExpectedPayment,
  FetchWebhookHandlerOptions,
  FinalNotification,
  WebhookHandlerOptions,
  WebhookReceiverOptions,
} from '../../../src/webhook/index';
import * as web from '../../../src/webhook/web';
import { expectTypeOf } from 'vitest';

declare const findOrder: (orderId: string) => Promise<ExpectedPayment | null>;
const onNotification = (): void => {};

// Neither a lookup nor the opt-out: no receiver, whichever way it is made.
// @ts-expect-error expectedPayment is required
createWebhookHandler({ publicKey: 'k', onNotification });
// @ts-expect-error expectedPayment is required
createFetchWebhookHandler({ publicKey: 'k', onNotification });
// @ts-expect-error expectedPayment is required
web.createFetchWebhookHandler({ publicKey: 'k', onNotification });
// @ts-expect-error expectedPayment is required
void listenWebhook({ port: 0, publicKey: 'k', onNotification });
// @ts-expect-error undefined is no decision either
createWebhookHandler({ publicKey: 'k', onNotification, expectedPayment: undefined });

// The opt-out is one word, spelled exactly.
createWebhookHandler({ publicKey: 'k', onNotification, expectedPayment: 'unreconciled' });
createFetchWebhookHandler({ publicKey: 'k', onNotification, expectedPayment: 'unreconciled' });
web.createFetchWebhookHandler({ publicKey: 'k', onNotification, expectedPayment: 'unreconciled' });
void listenWebhook({ port: 0, publicKey: 'k', onNotification, expectedPayment: 'unreconciled' });
createWebhookHandler({
  publicKey: 'k',
  onNotification,
  // @ts-expect-error a misspelt opt-out is no opt-out
  expectedPayment: 'unreconcilled',
});
createWebhookHandler({
  publicKey: 'k',
  onNotification,
  // @ts-expect-error nor is a flag
  expectedPayment: false,
});

// The lookup: sync or async, as an arrow or a method, its notification typed from the union.
createWebhookHandler({
  publicKey: 'k',
  onNotification,
  expectedPayment: (notification) => {
    expectTypeOf(notification).toEqualTypeOf<FinalNotification>();
    return null;
  },
});
createFetchWebhookHandler({
  publicKey: 'k',
  onNotification,
  async expectedPayment({ paymentMetadata }) {
    const orderId = paymentMetadata?.orderId;
    return typeof orderId === 'string' ? findOrder(orderId) : null;
  },
});

// The options types say it too: a merchant's own options object must decide.
expectTypeOf<WebhookHandlerOptions['expectedPayment']>().toEqualTypeOf<
  FetchWebhookHandlerOptions['expectedPayment']
>();
expectTypeOf<'unreconciled'>().toExtend<WebhookReceiverOptions<unknown>['expectedPayment']>();
expectTypeOf<undefined>().not.toExtend<WebhookReceiverOptions<unknown>['expectedPayment']>();
// @ts-expect-error expectedPayment is required
const undecided: WebhookHandlerOptions = { publicKey: 'k', onNotification };
void undecided;
