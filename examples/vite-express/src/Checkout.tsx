/// <reference types="vite/client" />
import { useEffect, useRef, useState } from 'react';
import { ServicePay } from 'servicepay';
import type { ServicePayHandle } from 'servicepay';
import { loadOrder } from './order';
import type { Order } from './order';

export function Checkout() {
  const pay = useRef<ServicePayHandle>(null);
  const [order, setOrder] = useState<Order | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    loadOrder().then(setOrder, () => setFailed(true));
  }, []);
  // Back from the result page's Try again (/?choose-bank): open the list of banks at once.
  useEffect(() => {
    const url = new URL(window.location.href);
    if (order === null || !url.searchParams.has('choose-bank')) return;
    url.searchParams.delete('choose-bank');
    window.history.replaceState(null, '', url);
    pay.current?.openInstitutionSelection();
  }, [order]);

  if (failed) return <p role="alert">We couldn't load your order. Please reload the page.</p>;
  if (order === null) return <p>Loading your order…</p>;
  return (
    <main>
      <h1>Your order</h1>
      <p>Single-origin coffee beans, 1 kg: £{order.amount.toFixed(2)}</p>
      <p>Reference: {order.reference}</p>
      <ServicePay
        ref={pay}
        environment="SANDBOX"
        applicationId="3f2a1d4e-5b6c-4d7e-8f90-a1b2c3d4e5f6"
        // Unset: the local sandbox's default address, http://127.0.0.1:4010.
        baseUrl={import.meta.env.VITE_SERVICEPAY_BASE_URL}
        // What the server decided, and the order's id, which its receiver looks the order up by.
        payment={{
          amount: order.amount,
          paymentReference: order.reference,
          metadata: { orderId: order.orderId },
        }}
      />
    </main>
  );
}
