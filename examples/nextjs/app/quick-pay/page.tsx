import { connection } from 'next/server';
import { checkoutConfig } from '../../lib/config';
import { createOrder } from '../../lib/orders';
import { QuickPay } from './quick-pay';

export default async function QuickPayPage() {
  await connection();
  const { applicationId, sandboxUrl } = checkoutConfig();
  // Made on the server, as on the checkout page: the client component is given its terms.
  const order = createOrder();
  return (
    <main>
      <h1>Other ways to pay</h1>
      <QuickPay
        applicationId={applicationId}
        sandboxUrl={sandboxUrl}
        amount={order.amount}
        reference={order.reference}
        orderId={order.orderId}
      />
    </main>
  );
}
