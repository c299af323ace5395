// Where the bank sends the shopper back (the sandbox appends ?paymentId=…). What it shows comes
// from the order as the verified webhook left it, never from the return address itself.
import { connection } from 'next/server';
import Link from 'next/link';
import { ORDER, findPayment } from '../../../lib/orders';
import { Refresh } from './refresh';

export default async function ResultPage({
  searchParams,
}: {
  searchParams: Promise<{ paymentId?: string }>;
}) {
  await connection();
  const { paymentId } = await searchParams;
  const payment = paymentId ? findPayment(paymentId) : undefined;

  if (!payment) {
    return (
      <main className="result" data-status="waiting">
        <h1>Waiting for your bank to confirm…</h1>
        <p role="status">This usually takes a few seconds. You can keep this page open.</p>
        <Refresh />
      </main>
    );
  }
  const paid = payment.status === 'paid';
  return (
    <main className="result" data-status={payment.status}>
      <h1>{paid ? 'Payment received' : 'Payment not completed'}</h1>
      <p role="status">
        {paid
          ? `Thank you. £${payment.amount.toFixed(2)} for ${ORDER.item} is paid.`
          : 'Your bank did not complete the payment and no money was taken.'}
      </p>
      <p>Reference: {payment.reference ?? ORDER.reference}</p>
      {!paid && <Link href="/">Try again with another bank</Link>}
    </main>
  );
}
