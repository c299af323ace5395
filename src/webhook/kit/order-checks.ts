/** The paid-order rule, for a store that also records which payment paid each order. */
import { describeValue } from '../../core/describe-value';
import { ORDER_METHODS, orderMethodsOf } from '../stores/orders';
import type { OrderStore } from '../stores/orders';
import { EXPIRY_SLACK_MS, settled, sleep } from './checked';
import type { Checked } from './checked';
import { IdempotencyStoreConformanceError } from './rules';

/** The rule `order-claim`, when the store has the order methods; nothing otherwise. */
export async function orders(checked: Checked, concurrency: number): Promise<void> {
  const methods = orderMethodsOf(checked.raw);
  if (methods === 0) return;
  const fail = (detail: string) => new IdempotencyStoreConformanceError('order-claim', detail);
  if (methods < ORDER_METHODS.length) {
    throw fail(`the store has one of ${ORDER_METHODS.join(' and ')}; it needs both or neither.`);
  }
  const store = checked.raw as unknown as OrderStore;
  const id = (): string => globalThis.crypto.randomUUID();
  const claim = (orderId: string, paymentId: string, ttlMs: number) =>
    settled(`claimOrder(${describeValue(orderId)})`, store.claimOrder(orderId, paymentId, ttlMs));
  const paidBy = (orderId: string) =>
    settled(`orderPaidBy(${describeValue(orderId)})`, store.orderPaidBy(orderId));

  const unknown = await paidBy(id());
  if (unknown !== null) {
    throw fail(
      `orderPaidBy of an order nobody claimed answered ${describeValue(unknown)}; expected null.`,
    );
  }
  // Concurrent claims of one order by different payments: one pays it, all say which.
  const order = id();
  const payments = Array.from({ length: concurrency }, id);
  const answers = await Promise.all(payments.map((payment) => claim(order, payment, 60_000)));
  const winner = answers[0];
  if (!payments.includes(winner as string) || answers.some((answer) => answer !== winner)) {
    throw fail(
      `of ${concurrency} concurrent claims of one order by different payments, the answers were ${describeValue([...new Set(answers)])}; every one must be the same paymentId, one of theirs.`,
    );
  }
  const later = [await claim(order, id(), 60_000), await claim(order, winner as string, 60_000)];
  const read = await paidBy(order);
  if (later.some((answer) => answer !== winner) || read !== winner) {
    throw fail(
      `after ${describeValue(winner)} paid an order, a claim by another payment answered ${describeValue(later[0])}, a claim by the same one ${describeValue(later[1])}, and orderPaidBy ${describeValue(read)}; all must be ${describeValue(winner)}.`,
    );
  }

  // Expiry: an order claimed for 1 s is unpaid after it, and the next claim takes it.
  const brief = id();
  await claim(brief, id(), 1000);
  const written = Date.now();
  await sleep(written + 1000 + EXPIRY_SLACK_MS - Date.now());
  const next = id();
  const [afterRead, afterClaim] = [await paidBy(brief), await claim(brief, next, 60_000)];
  if (afterRead !== null || afterClaim !== next) {
    throw fail(
      `an order claimed for 1000 ms was, ${Date.now() - written} ms later, read as paid by ${describeValue(afterRead)} (expected null) and claimed by another payment as ${describeValue(afterClaim)} (expected that payment).`,
    );
  }
}
