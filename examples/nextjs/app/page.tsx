// A Server Component page (no 'use client'): it renders <ServicePay> with serialisable props and
// uses the root entry's plain exports (validation, ServiceEvent) on the server. The order is
// made here, on the server (lib/orders.ts): its amount and reference are the server's, and the
// payment names it by its id in the metadata, which the webhook route checks the payment
// against. (A real shop makes the order when the shopper checks out their basket.)
import { connection } from 'next/server';
import Link from 'next/link';
import { ServiceEvent, ServicePay, validatePaymentArgs } from 'servicepay';
import { checkoutConfig } from '../lib/config';
import { ITEM, createOrder } from '../lib/orders';
import { OrderWindow } from './order-window';

export default async function CheckoutPage() {
  // Render per request, so the configuration is read at run time, not frozen at build.
  await connection();
  const { applicationId, sandboxUrl } = checkoutConfig();
  const order = createOrder();
  const payment = {
    amount: order.amount,
    paymentReference: order.reference,
    metadata: { orderId: order.orderId },
  };
  // The same rules the component applies, checked on the server before rendering.
  const checked = validatePaymentArgs(payment);
  if (!checked.ok) throw new Error(`The order cannot be paid: ${checked.issue.reason}`);

  return (
    <main>
      <h1>Example Coffee Co.</h1>
      <section className="order" aria-labelledby="order-title">
        <h2 id="order-title">Your order</h2>
        <p>
          {ITEM.name}: £{order.amount.toFixed(2)}, reference {order.reference}
        </p>
      </section>
      <OrderWindow closesAt={order.closesAt}>
        <ServicePay
          environment="SANDBOX"
          applicationId={applicationId}
          baseUrl={sandboxUrl}
          payment={payment}
        />
      </OrderWindow>
      <p>
        <Link href="/quick-pay">Other ways to pay</Link>
      </p>
      {/* A constant of the root entry, read on the server: the real value, not a client reference. */}
      <p hidden data-server-constant={ServiceEvent.PAYMENT_INITIATED} />
    </main>
  );
}
