// @vitest-environment node
// What a sandbox left running keeps: `POST /v1/payments` answers any origin (the browser
// component calls it), so any page can add payments; the sandbox keeps the latest maxPayments
// of them with their notifications and forgets the oldest. And many deliveries at once are no
// cause for a warning.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_MAX_PAYMENTS } from '../../src/sandbox/index';
import { startReceiver } from './support/receiver';
import type { Receiver } from './support/receiver';
import { createPayment, testSandbox } from './support/sandbox';

// Heap figures after a full collection, not whatever garbage the requests left behind.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let receiver: Receiver | undefined;
afterEach(() => receiver?.stop());

it(
  'keeps the latest maxPayments of 10,000 payments with their notifications, in bounded memory',
  { timeout: 120_000 },
  async () => {
    let delivered = 0;
    receiver = await startReceiver();
    const sandbox = await testSandbox({
      webhookUrl: receiver.url,
      onDelivery: (attempt) => void (attempt.outcome === 'delivered' && delivered++),
    });
    gc();
    const used = () => {
      const { heapUsed, external } = process.memoryUsage();
      return heapUsed + external;
    };
    const before = used();
    const ids: string[] = [];
    for (let batch = 0; batch < 20; batch++) {
      const created = await Promise.all(Array.from({ length: 500 }, () => createPayment(sandbox)));
      for (const { paymentId } of created) {
        ids.push(paymentId);
        sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
      }
      await expect.poll(() => delivered, { interval: 5, timeout: 30_000 }).toBe(ids.length);
      receiver.requests.splice(0); // the test's receiver keeps nothing either
    }
    gc();
    const grown = used() - before;

    // Heap and buffers after a collection: all 10,000 kept took 38 MB here, the latest 1000
    // about 15 MB (their notifications, 1000 attempts); a generous bound on what is kept.
    expect(Math.round(grown / 2 ** 20)).toBeLessThan(25);
    expect([...sandbox.payments.keys()]).toEqual(ids.slice(-1000));
    expect(DEFAULT_MAX_PAYMENTS).toBe(1000);
    // The oldest are forgotten: the API does not know them, nor their notifications.
    expect((await fetch(`${sandbox.url}/v1/payments/${ids[0]}`)).status).toBe(404);
    expect(() => sandbox.resendNotification(ids[0]!)).toThrow(/^servicepay: /);
    // The latest are whole: their notification can be sent again.
    expect(sandbox.resendNotification(ids.at(-1)!)).toBe(2);
    await expect.poll(() => delivered).toBe(ids.length + 1);
  },
);

it('forgets the oldest beyond a configured maxPayments, on the deliveries page too, which says so', async () => {
  receiver = await startReceiver();
  const sandbox = await testSandbox({ webhookUrl: receiver.url, maxPayments: 2 });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const { paymentId } = await createPayment(sandbox);
    ids.push(paymentId);
    const delivered = sandbox.attempt((attempt) => attempt.paymentId === paymentId);
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    await delivered;
  }
  expect([...sandbox.payments.keys()]).toEqual(ids.slice(1));
  const page = await (await fetch(`${sandbox.url}/deliveries`)).text();
  expect(page).toContain('payments with their notifications are kept');
  expect(page).not.toContain(ids[0]);
  expect(page).toContain(ids[2]);
  await expect(testSandbox({ maxPayments: 0 })).rejects.toMatchObject({ option: 'maxPayments' });
});

it('sends more than 10 deliveries at once without a MaxListenersExceededWarning', async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  try {
    let release!: () => void;
    const allHere = new Promise<void>((resolve) => (release = resolve));
    // Holds every answer until 20 deliveries are in flight at once.
    receiver = await startReceiver(async (_, index) => {
      if (index === 20) release();
      await allHere;
      return 200;
    });
    let delivered = 0;
    const sandbox = await testSandbox({
      webhookUrl: receiver.url,
      onDelivery: (attempt) => void (attempt.outcome === 'delivered' && delivered++),
    });
    const created = await Promise.all(Array.from({ length: 20 }, () => createPayment(sandbox)));
    for (const { paymentId } of created) sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    await expect.poll(() => delivered).toBe(20);
    // process.emitWarning reports on a later tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
  } finally {
    process.off('warning', onWarning);
  }
});
