'use client';
// A client component because onTryAgain is a function (a Server Component cannot pass one).
// The children (the order summary) are rendered on the server and passed through.
import type { ReactNode } from 'react';
import { useRouter } from 'next/navigation';
import { PaymentResult } from 'servicepay';

export function OrderResult({ children }: { children: ReactNode }) {
  const router = useRouter();
  return (
    <PaymentResult
      statusUrl="/api/payments/status"
      headingLevel={1}
      // How the shopper hears when the bank takes its time (shown after the first minute).
      pendingNotice="We will email you as soon as your bank confirms the payment."
      // Back to the checkout, to pay with the same bank or another.
      onTryAgain={() => router.push('/')}
    >
      {children}
    </PaymentResult>
  );
}
