'use client';
// A client component: callbacks, the ref handle and the headless hook need the browser.
import { useRef, useState } from 'react';
import { ServiceEvent, ServicePay, useServicePayment } from 'servicepay';
import type { ServicePayHandle } from 'servicepay';

interface Props {
  applicationId: string;
  sandboxUrl: string;
  amount: number;
  reference: string;
  /** The server's order this pays: the webhook route looks it up by this id. */
  orderId: string;
}

export function QuickPay({ applicationId, sandboxUrl, amount, reference, orderId }: Props) {
  // One object for the page's life: the component re-applies a payment only when it changes.
  const [payment] = useState(() => ({
    amount,
    paymentReference: reference,
    metadata: { orderId },
  }));
  return (
    <>
      <UsualBank applicationId={applicationId} sandboxUrl={sandboxUrl} payment={payment} />
      <FavouriteBanks applicationId={applicationId} sandboxUrl={sandboxUrl} payment={payment} />
    </>
  );
}

interface PartProps {
  applicationId: string;
  sandboxUrl: string;
  payment: { amount: number; paymentReference: string; metadata: { orderId: string } };
}

/** The ref handle: the shop remembers the shopper's bank and offers it in one press. */
function UsualBank({ applicationId, sandboxUrl, payment }: PartProps) {
  const pay = useRef<ServicePayHandle>(null);
  const [ready, setReady] = useState(false);
  return (
    <section aria-labelledby="usual-title">
      <h2 id="usual-title">Your usual bank</h2>
      <button
        type="button"
        disabled={!ready}
        onClick={() => void pay.current?.payWithInstitution('barclays')}
      >
        Pay with Barclays
      </button>
      <ServicePay
        ref={pay}
        environment="SANDBOX"
        applicationId={applicationId}
        baseUrl={sandboxUrl}
        payment={payment}
        eventConsumer={(event) => event === ServiceEvent.INSTITUTIONS_FETCHED && setReady(true)}
        errorConsumer={({ location, error }) => console.warn(location, error)}
      />
    </section>
  );
}

/** The hook: the same engine with the shop's own design, here three buttons. */
function FavouriteBanks({ applicationId, sandboxUrl, payment }: PartProps) {
  const session = useServicePayment({
    environment: 'SANDBOX',
    applicationId,
    baseUrl: sandboxUrl,
    payment,
  });
  const favourites = session.institutions.slice(0, 3);
  return (
    <section aria-labelledby="favourites-title">
      <h2 id="favourites-title">Popular banks</h2>
      {session.institutionsState === 'failed' && (
        <p role="alert">
          The banks could not be loaded.{' '}
          <button type="button" onClick={session.retry}>
            Try again
          </button>
        </p>
      )}
      <ul>
        {favourites.map((bank) => (
          <li key={bank.id}>
            <button
              type="button"
              disabled={session.paymentState !== 'none'}
              onClick={() => void session.payWithInstitution(bank.id)}
            >
              {bank.name}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
