// The example merchant checkout: <ServicePay> in SANDBOX against the local sandbox. After the
// bank redirects back, the page shows the status confirmed by the verified webhook that the
// example's server stored, never the redirect alone.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ServicePay } from 'servicepay';
import type { ServiceError } from 'servicepay';

interface Config {
  sandboxUrl: string;
  applicationId: string;
  /** This page's CSP nonce, for the component's injected stylesheet. */
  nonce: string;
}

interface StoredPayment {
  paymentId: string;
  merchantPaymentId: string | null;
  paymentStatus: 'COMPLETED' | 'FAILED';
  errorDescription: string | null;
  amount: number;
  reference: string | null;
  timesProcessed: number;
}

const config = JSON.parse(document.getElementById('config')!.textContent!) as Config;

function Checkout() {
  const [reference, setReference] = useState('ORDER-1042');
  const [events, setEvents] = useState<string[]>([]);
  const [errors, setErrors] = useState<ServiceError[]>([]);
  return (
    <main className="shop">
      <h1>Example Coffee Co.</h1>
      <section className="order" aria-labelledby="order-title">
        <h2 id="order-title">Your order</h2>
        <p>Single-origin coffee beans, 1 kg — £12.50</p>
        <label htmlFor="reference">Payment reference (shown in your banking app)</label>
        <input
          id="reference"
          value={reference}
          onChange={(event) => setReference(event.target.value)}
        />
      </section>
      <ServicePay
        environment="SANDBOX"
        applicationId={config.applicationId}
        baseUrl={config.sandboxUrl}
        nonce={config.nonce}
        payment={{ amount: 12.5, paymentReference: reference, metadata: { orderId: 1042 } }}
        eventConsumer={(event) => setEvents((all) => [...all, event])}
        errorConsumer={(error) => setErrors((all) => [...all, error])}
      />
      <section aria-labelledby="errors-title">
        <h2 id="errors-title">Errors</h2>
        <ul aria-label="Errors" data-testid="errors">
          {errors.map((error, index) => (
            <li key={index}>
              {error.location}: {error.error}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="events-title">
        <h2 id="events-title">Events</h2>
        <ol aria-label="Events" data-testid="events">
          {events.map((event, index) => (
            <li key={index}>{event}</li>
          ))}
        </ol>
      </section>
    </main>
  );
}

function Result() {
  const query = new URLSearchParams(window.location.search);
  const paymentId = query.get('paymentId') ?? '';
  const [payment, setPayment] = useState<StoredPayment | null>(null);
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Poll our own server: only a verified webhook tells the truth about a payment.
    async function poll() {
      const response = await fetch(`/api/payments/${encodeURIComponent(paymentId)}`);
      if (stop) return;
      if (response.status === 200) return setPayment((await response.json()) as StoredPayment);
      timer = setTimeout(poll, 250);
    }
    void poll();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [paymentId]);

  return (
    <main className="shop">
      <h1>Example Coffee Co.</h1>
      <section className="order" aria-live="polite" data-testid="result">
        {payment === null ? (
          <p>Waiting for the bank's confirmation…</p>
        ) : (
          <>
            <h2>
              Payment <span data-testid="status">{payment.paymentStatus}</span>
            </h2>
            <p>Confirmed by a verified webhook from the service.</p>
            {payment.errorDescription && (
              <p data-testid="error-description">{payment.errorDescription}</p>
            )}
            <dl>
              <dt>Amount</dt>
              <dd>£{payment.amount.toFixed(2)}</dd>
              <dt>Reference</dt>
              <dd>{payment.reference}</dd>
              <dt>Payment id</dt>
              <dd>{payment.paymentId}</dd>
            </dl>
          </>
        )}
        <p>
          <a href="/">Back to the shop</a>
        </p>
      </section>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>{window.location.pathname === '/return' ? <Result /> : <Checkout />}</StrictMode>,
);
