/// <reference types="vite/client" />
import { useEffect, useRef } from 'react';
import { ServicePay } from 'servicepay';
import type { ServicePayHandle } from 'servicepay';

export function Checkout() {
  const pay = useRef<ServicePayHandle>(null);
  // Back from the result page's Try again (/?choose-bank): open the list of banks at once.
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has('choose-bank')) return;
    url.searchParams.delete('choose-bank');
    window.history.replaceState(null, '', url);
    pay.current?.openInstitutionSelection();
  }, []);

  return (
    <main>
      <h1>Your order</h1>
      <p>Single-origin coffee beans, 1 kg: £12.50</p>
      <ServicePay
        ref={pay}
        environment="SANDBOX"
        applicationId="3f2a1d4e-5b6c-4d7e-8f90-a1b2c3d4e5f6"
        // Unset: the local sandbox's default address, http://127.0.0.1:4010.
        baseUrl={import.meta.env.VITE_SERVICEPAY_BASE_URL}
        payment={{ amount: 12.5, paymentReference: 'ORDER-1042' }}
      />
    </main>
  );
}
