// The one rule for payment ids (src/core/protocol.ts), end to end with real parts: a
// merchantPaymentId that createPayment accepts is paid through the sandbox (real HTTP
// transport, the sandbox's bank decision, its signed webhook to a real receiver) and its
// outcome found by <PaymentResult> at a real createPaymentStatusHandler, from the return
// address the sandbox sends the shopper back to. One that the endpoint could not look up is
// refused by createPayment instead: one or the other, never a page that waits in vain.
import { render, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_MESSAGES, DEFAULT_RESULT_MESSAGES, PaymentResult } from '../../src/react/index';
import {
  MemoryIdempotencyStore,
  createPaymentStatusHandler,
  createWebhookHandler,
} from '../../src/webhook/index';
import type { WebhookHandler } from '../../src/webhook/index';
import { decide, testSandbox } from '../sandbox/support/sandbox';
import type { TestSandbox } from '../sandbox/support/sandbox';
import { listen } from '../webhook/support/http';
import type { TestServer } from '../webhook/support/http';
import { renderServicePay } from './render';
import { fakeTransport } from './support';

const WAIT = { timeout: 15_000 };
const ID_RULE = 'must be a non-blank string of at most 200 characters without control characters';

/** The shop's server: the webhook receiver and the status endpoint, on one store. */
let shop: TestServer;
let statusUrl: string;
let receive: WebhookHandler | undefined;
const store = new MemoryIdempotencyStore();
const status = createPaymentStatusHandler({ store });

beforeAll(async () => {
  shop = await listen((req, res) => {
    if (req.url?.startsWith('/webhooks')) void receive!(req, res);
    else status(req, res);
  });
  statusUrl = `${shop.url}/api/payments/status`;
});
afterAll(async () => {
  await status.close();
  await shop.close();
});

/** A sandbox that sends its webhooks to the shop and the shopper back to its result page. */
async function sandboxForShop(): Promise<TestSandbox> {
  const sandbox = await testSandbox({
    webhookUrl: `${shop.url}/webhooks`,
    webCallbackUrl: 'http://localhost:3000/checkout/result',
  });
  receive = createWebhookHandler({
    publicKey: sandbox.publicKey,
    expectedPayment: 'unreconciled',
    store,
    onNotification() {},
  });
  return sandbox;
}

describe('an id createPayment accepts finds its outcome', { timeout: 60_000 }, () => {
  it.each([
    ['with a space', 'order 1042'],
    ['with a slash', 'shop/orders/1042'],
    ['of 200 characters (more than the old 128)', 'o'.repeat(200)],
    ['in unicode', 'commande-1042-café-ü-😀'],
  ])('%s: paid through the sandbox, then "Payment received"', async (_name, merchantPaymentId) => {
    const sandbox = await sandboxForShop();
    const pay = renderServicePay({
      applicationId: sandbox.applicationId,
      baseUrl: sandbox.url,
      payment: { amount: 12.5, paymentReference: 'ORDER-1042', merchantPaymentId },
    });
    await pay.user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    await pay.user.click(await screen.findByRole('button', { name: 'Barclays' }, WAIT));
    await waitFor(() => expect(pay.openUrl).toHaveBeenCalledTimes(1), WAIT);
    const [, ids] = pay.openUrl.mock.calls[0] as [string, { paymentId: string }];
    expect(ids).toEqual({ paymentId: expect.any(String), merchantPaymentId });
    expect(pay.log.errors()).toEqual([]);
    pay.unmount();

    // The shopper approves at the bank and is sent back with the ids in the address.
    const decision = await decide(sandbox, ids.paymentId, 'approve');
    expect(decision.status).toBe(303);
    const back = new URL(decision.headers.get('location')!);
    expect(back.searchParams.get('merchantPaymentId')).toBe(merchantPaymentId);
    sessionStorage.clear();
    history.replaceState(null, '', back.pathname + back.search);

    const onResult = vi.fn();
    render(<PaymentResult statusUrl={statusUrl} onResult={onResult} />);
    await screen.findByRole('heading', { name: DEFAULT_RESULT_MESSAGES.received }, WAIT);
    expect(onResult.mock.calls).toEqual([[{ ...ids, status: 'COMPLETED' }]]);
  });
});

describe('an id the status endpoint could not look up is refused by createPayment', () => {
  it.each([
    ['a control character', 'order\u00001042', 'order\u00001042'],
    ['201 characters', 'o'.repeat(201), `${'o'.repeat(120)}…`],
    ['a blank id', ' \t ', ' \t '],
  ])('%s: the spec’s validation error, and no payment to wait for', async (_name, id, shown) => {
    const transport = fakeTransport();
    const pay = renderServicePay({
      transport,
      payment: { amount: 12.5, paymentReference: 'ORDER-1042', merchantPaymentId: id },
    });
    await waitFor(() =>
      expect(pay.log.errors()).toEqual([
        {
          location: 'payWithBankInstitution',
          error: `Input validation error: field=[merchantPaymentId], value=[${shown}], error=[${ID_RULE}]`,
        },
      ]),
    );
    const button = await screen.findByRole('button', { name: 'Pay' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(DEFAULT_MESSAGES.paymentInvalid);
    expect(transport.paymentRequests).toEqual([]);
  });
});
