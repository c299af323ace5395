// The example checkout on servicepay/hosted (/hosted): the service's own script draws the Pay
// component, here the sandbox's script at its script host, as the live service's would be at
// its own (docs/going-live.md). The order is the server's, as on the first checkout; the
// placeholder that holds the Pay step's place while the script loads wears the package's
// optional stylesheet (servicepay/hosted.css, linked by the page). The wrapper cannot save the
// payment before the bank, so the page tells the shop's server each attempt's merchantPaymentId
// (onPaymentInitiated): the return page finds the payment through the shopper's session when
// the bank drops the return address's query (session-result.tsx).
import { StrictMode, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ServicePay } from 'servicepay/hosted';
import type { HostedServicePayHandle, ServiceError } from 'servicepay/hosted';
import { loadOrder, rememberCheckout, rememberOrder } from './order';
import type { Order } from './order';
import { ErrorList, OrderCard, SiteHeader, useChooseBankOnReturn, useOrderPayment } from './result';

interface Config {
  /** The service's script: the sandbox's, at its versioned address, and its SRI hash. */
  scriptSrc: string;
  integrity: string;
  applicationId: string;
  merchantName: string;
  /** This page's CSP nonce, for the script's element (and so for the service's styles). */
  nonce: string;
}

const config = JSON.parse(document.getElementById('config')!.textContent!) as Config;

/**
 * Tells the shop's server the attempt the shopper just began, against the session's order (the
 * server takes the order from the session, never from the page). `keepalive`: the bank's page
 * replaces this one moments later, and the request must still be sent.
 */
function reportAttempt(merchantPaymentId: string) {
  void fetch('/api/checkout/attempts', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ merchantPaymentId }),
    keepalive: true,
  }).catch(() => {
    // Lost: the return page then follows the payment the receiver last heard for the order.
  });
}

function HostedCheckout({ order }: { order: Order }) {
  const pay = useRef<HostedServicePayHandle>(null);
  const [errors, setErrors] = useState<ServiceError[]>([]);
  const payment = useOrderPayment(order);
  // Back from the result page's Try again (/hosted?choose-bank): the banks, at once.
  useChooseBankOnReturn(() => pay.current?.openInstitutionSelection());
  return (
    <>
      <SiteHeader shop={config.merchantName} />
      <main className="shop">
        <OrderCard order={order} />
        <ServicePay
          ref={pay}
          scriptSrc={config.scriptSrc}
          integrity={config.integrity}
          nonce={config.nonce}
          environment="SANDBOX"
          applicationId={config.applicationId}
          payment={payment}
          onPaymentInitiated={({ merchantPaymentId }) => {
            // The result page shows this order, and its Try again comes back here.
            rememberOrder(order);
            rememberCheckout('/hosted');
            reportAttempt(merchantPaymentId);
          }}
          errorConsumer={(error) => setErrors((all) => [...all, error])}
        />
        {errors.length > 0 && (
          <details className="developer">
            <summary>Developer panel: {errors.length} errors</summary>
            <ErrorList errors={errors} />
          </details>
        )}
      </main>
    </>
  );
}

const root = createRoot(document.getElementById('root')!);
loadOrder().then(
  (order) =>
    root.render(
      <StrictMode>
        <HostedCheckout order={order} />
      </StrictMode>,
    ),
  () =>
    root.render(
      <main className="shop">
        <h1>Your order</h1>
        <p role="alert">We could not load your order. Please reload the page to try again.</p>
      </main>,
    ),
);
