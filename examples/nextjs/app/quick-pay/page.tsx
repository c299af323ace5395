import { connection } from 'next/server';
import { checkoutConfig } from '../../lib/config';
import { ORDER } from '../../lib/orders';
import { QuickPay } from './quick-pay';

export default async function QuickPayPage() {
  await connection();
  const { applicationId, sandboxUrl } = checkoutConfig();
  return (
    <main>
      <h1>Other ways to pay</h1>
      <QuickPay
        applicationId={applicationId}
        sandboxUrl={sandboxUrl}
        amount={ORDER.amount}
        reference={ORDER.reference}
      />
    </main>
  );
}
