/** The outcome rules, for a store that also records payment outcomes. */
import { describeValue } from '../../core/describe-value';
import { recordsOutcomes } from '../stores/outcomes';
import type { OutcomeStore, PaymentOutcome } from '../stores/outcomes';
import { EXPIRY_SLACK_MS, settled, sleep } from './checked';
import type { Checked } from './checked';
import { IdempotencyStoreConformanceError } from './rules';

/** The outcome rules, when the store has the outcome methods; nothing otherwise. */
export async function outcomes(checked: Checked): Promise<void> {
  const store = checked.raw;
  if (!recordsOutcomes(store)) return;
  const id = (): string => globalThis.crypto.randomUUID();
  const outcome = (paymentId: string, status: PaymentOutcome['status']): PaymentOutcome => ({
    paymentId,
    merchantPaymentId: id(),
    status,
    recordedAt: new Date().toISOString(),
  });
  const same = (a: PaymentOutcome | null, b: PaymentOutcome): boolean =>
    a !== null &&
    a.paymentId === b.paymentId &&
    a.merchantPaymentId === b.merchantPaymentId &&
    a.status === b.status;
  const read = (paymentId: string) =>
    settled(`readOutcome(${describeValue(paymentId)})`, store.readOutcome(paymentId));
  const record = (value: PaymentOutcome, ttlMs: number) =>
    settled(`recordOutcome(${describeValue(value.paymentId)})`, store.recordOutcome(value, ttlMs));

  if ((await read(id())) !== null) {
    throw new IdempotencyStoreConformanceError(
      'outcome-record',
      'readOutcome of a payment never recorded answered an outcome; expected null.',
    );
  }
  const first = outcome(id(), 'NEEDS_REVIEW'); // any final status, not only the notification's
  const stood = await record(first, 60_000);
  const later = await record({ ...outcome(first.paymentId, 'COMPLETED') }, 60_000);
  const readBack = await read(first.paymentId);
  if (!same(stood, first) || !same(later, first) || !same(readBack, first)) {
    throw new IdempotencyStoreConformanceError(
      'outcome-record',
      `the first outcome recorded for a payment must stand: recorded ${describeValue(first)}, then another status; answers were ${describeValue(stood)}, ${describeValue(later)}, read ${describeValue(readBack)}.`,
    );
  }

  // Subscriptions: one that waits, one that left before the record, one for another payment.
  const heard: PaymentOutcome[] = [];
  const strayed: PaymentOutcome[] = [];
  const target = outcome(id(), 'COMPLETED');
  const subscribe = (paymentId: string, listener: (o: PaymentOutcome) => void) =>
    settled(
      `subscribeOutcome(${describeValue(paymentId)})`,
      store.subscribeOutcome(paymentId, listener),
    );
  const stop = await subscribe(target.paymentId, (o) => heard.push(o));
  const left = await subscribe(target.paymentId, (o) => strayed.push(o));
  const other = await subscribe(id(), (o) => strayed.push(o));
  left();
  await record(target, 60_000);
  for (let i = 0; i < 100 && heard.length === 0; i++) await sleep(50);
  await sleep(200); // a second call, if any, arrives meanwhile
  stop();
  other();
  if (heard.length !== 1 || !same(heard[0] ?? null, target) || strayed.length > 0) {
    throw new IdempotencyStoreConformanceError(
      'outcome-subscribe',
      `a subscriber of ${describeValue(target.paymentId)} heard ${describeValue(heard)} (expected exactly that outcome, once), and subscribers that had left or wait for another payment heard ${describeValue(strayed)} (expected nothing).`,
    );
  }

  // Expiry: an outcome kept for 1 s is gone after it.
  const brief = outcome(id(), 'COMPLETED');
  await record(brief, 1000);
  const written = Date.now();
  await sleep(written + 1000 + EXPIRY_SLACK_MS - Date.now());
  if ((await read(brief.paymentId)) !== null) {
    throw new IdempotencyStoreConformanceError(
      'outcome-record',
      `an outcome recorded for 1000 ms was still read ${Date.now() - written} ms later.`,
    );
  }
  await (store as OutcomeStore).close?.();
}
