// Where the bank sends the shopper back. A Server Component with nothing per request: the
// item is rendered here (the order is not known here: the bank's return address names the
// payment, not the order), and <PaymentResult> (in a client component, as it takes a
// callback) asks the status route, live, and shows only what the verified webhook said, never
// what the return address claims; once paid, with what was paid (amount, payee, the order's
// reference), which the status route adds from the order (lib/orders.ts, paidFor). It finds the payment from the address's query, or from what
// <ServicePay> saved in this tab when the bank sends the shopper back with none.
import Link from 'next/link';
import { ITEM } from '../../../lib/orders';
import { OrderResult } from './order-result';

export default function ResultPage() {
  return (
    <main>
      <OrderResult>
        <p>
          {ITEM.name}: £{ITEM.amount.toFixed(2)}
        </p>
        <p>
          <Link href="/">Back to the shop</Link>
        </p>
      </OrderResult>
    </main>
  );
}
