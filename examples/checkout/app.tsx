// The example merchant checkout: <ServicePay> in SANDBOX against the local sandbox. After the
// bank redirects back, the result page (result.tsx, the library's <PaymentResult>) shows the
// status the example's server heard in the verified webhook, never the redirect alone.
import { StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ServiceEvent, ServicePay } from 'servicepay';
import type { ServiceError, ServicePayHandle } from 'servicepay';
import { ORDER, formatAmount, lastReference, rememberReference } from './order';
import { Result } from './result';

interface Config {
  sandboxUrl: string;
  applicationId: string;
  /** The shop's display name, the payee the sandbox's bank page shows too. */
  merchantName: string;
  /** This page's CSP nonce, for the component's injected stylesheet. */
  nonce: string;
}

const config = JSON.parse(document.getElementById('config')!.textContent!) as Config;

function Checkout() {
  const [reference, setReference] = useState(() => lastReference() ?? ORDER.defaultReference);
  const [events, setEvents] = useState<string[]>([]);
  const [errors, setErrors] = useState<ServiceError[]>([]);
  const service = useRef<ServicePayHandle>(null);
  // "Try again" on the result page comes back here to choose a bank (the same or another).
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    if (!query.has('choose-bank')) return;
    window.history.replaceState(null, '', window.location.pathname);
    service.current?.openInstitutionSelection();
  }, []);
  return (
    <main className="shop">
      <h1>{config.merchantName}</h1>
      <section className="order" aria-labelledby="order-title">
        <h2 id="order-title">Your order</h2>
        <p>
          {ORDER.item} — {formatAmount(ORDER.amount)}
        </p>
        <label htmlFor="reference">Payment reference (shown in your banking app)</label>
        <input
          id="reference"
          value={reference}
          onChange={(event) => setReference(event.target.value)}
        />
      </section>
      <ServicePay
        ref={service}
        environment="SANDBOX"
        applicationId={config.applicationId}
        baseUrl={config.sandboxUrl}
        nonce={config.nonce}
        payment={{ amount: ORDER.amount, paymentReference: reference, metadata: { orderId: 1042 } }}
        eventConsumer={(event) => {
          // The result page shows this reference while the bank has not confirmed yet.
          if (event === ServiceEvent.PAYMENT_INITIATED) rememberReference(reference);
          setEvents((all) => [...all, event]);
        }}
        errorConsumer={(error) => setErrors((all) => [...all, error])}
      />
      {/* For the developer trying the example, not for the shopper: a real checkout shows none
          of this. Closed by default, so the page reads as a shop; the counts show activity. */}
      <details className="developer">
        <summary>
          Developer panel: {events.length} {events.length === 1 ? 'event' : 'events'},{' '}
          {errors.length} {errors.length === 1 ? 'error' : 'errors'}
        </summary>
        <section aria-labelledby="errors-title">
          <h2 id="errors-title">Errors (errorConsumer)</h2>
          <ul aria-label="Errors" data-testid="errors">
            {errors.map((error, index) => (
              <li key={index}>
                {error.location}: {error.error}
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="events-title">
          <h2 id="events-title">Events (eventConsumer)</h2>
          <ol aria-label="Events" data-testid="events">
            {events.map((event, index) => (
              <li key={index}>{event}</li>
            ))}
          </ol>
        </section>
      </details>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {window.location.pathname === '/return' ? (
      <Result shop={config.merchantName} nonce={config.nonce} />
    ) : (
      <Checkout />
    )}
  </StrictMode>,
);
