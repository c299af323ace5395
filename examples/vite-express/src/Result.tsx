import { PaymentResult } from 'servicepay';

export function Result() {
  return (
    <main>
      <PaymentResult
        statusUrl="/api/payments/status"
        headingLevel={1}
        // Back to the checkout, which opens the list of banks itself (Checkout.tsx).
        onTryAgain={() => window.location.assign('/?choose-bank')}
      >
        <p>
          <a href="/">Back to the shop</a>
        </p>
      </PaymentResult>
    </main>
  );
}
