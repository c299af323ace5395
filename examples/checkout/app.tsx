// The example merchant checkout: <ServicePay> in SANDBOX against the local sandbox, paying the
// order the shop's server made (order.ts): its amount and reference, and its id in the
// payment's metadata, which the server's receiver looks the order up by. After the
// bank redirects back, the result page (result.tsx, the library's <PaymentResult>) shows the
// status the example's server heard in the verified webhook, never the redirect alone. With the
// extras on (docs/handoff.md): on a desktop the shopper scans a QR code and approves on their
// phone, and this page follows the outcome in place; the bank last paid with comes first, and
// the shop's popular banks next.
import { StrictMode, useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { DEFAULT_RESULT_MESSAGES, ServiceEvent, ServicePay } from 'servicepay';
import type { ServiceError, ServicePayHandle } from 'servicepay';
import { extras } from 'servicepay/extras';
import { formatTime, loadOrder, rememberCheckout, rememberOrder } from './order';
import type { Order } from './order';
import {
  ErrorList,
  OrderCard,
  REVIEW_CONTACT,
  Result,
  SiteHeader,
  useChooseBankOnReturn,
  useOrderPayment,
} from './result';

interface Config {
  sandboxUrl: string;
  applicationId: string;
  /** The shop's display name, the payee the sandbox's bank page shows too. */
  merchantName: string;
  /** This page's CSP nonce, for the component's injected stylesheet. */
  nonce: string;
  /** This shop's payment status endpoint, which follows a payment handed to the phone. */
  statusUrl: string;
}

/** The banks most of this shop's customers use, shown above the full list. */
const FEATURED_BANKS = ['barclays', 'monzo'];

const config = JSON.parse(document.getElementById('config')!.textContent!) as Config;

/**
 * Whether the order has closed: its window to pay ended while the page was open (the server
 * decides; this only stops offering to pay an order the server no longer takes payment for).
 */
function useClosed(order: Order): boolean {
  const left = () => Date.parse(order.closesAt) - Date.now();
  const [closed, setClosed] = useState(() => left() <= 0);
  useEffect(() => {
    if (closed) return;
    // A timer's delay is at most 2^31 - 1 ms; an order's window is minutes.
    const timer = setTimeout(() => setClosed(true), Math.min(Math.max(left(), 0), 2 ** 31 - 1));
    return () => clearTimeout(timer);
  });
  return closed;
}

/** The checkout of the order the server gave; a fresh order once it has closed. */
function Shop({ first }: { first: Order }) {
  const [order, setOrder] = useState(first);
  const [failed, setFailed] = useState(false);
  if (failed) return <OrderUnavailable />;
  const startAgain = () =>
    loadOrder({ fresh: true }).then(
      (next) => {
        // The new order's address, so that a reload pays it rather than the closed one.
        window.history.replaceState(null, '', window.location.pathname);
        setOrder(next);
      },
      () => setFailed(true),
    );
  return <Checkout key={order.orderId} order={order} onStartAgain={startAgain} />;
}

function Checkout({ order, onStartAgain }: { order: Order; onStartAgain: () => void }) {
  const closed = useClosed(order);
  const [events, setEvents] = useState<string[]>([]);
  const [errors, setErrors] = useState<ServiceError[]>([]);
  // Paid in this page (the desktop handoff): the order is confirmed here, as on the result page.
  const [confirmed, setConfirmed] = useState(false);
  // The developer panel's payWithInstitution field.
  const [institutionId, setInstitutionId] = useState('');
  const service = useRef<ServicePayHandle>(null);
  const payment = useOrderPayment(order);
  const log = (event: string) => setEvents((all) => [...all, event]);
  // "Try again" on the result page comes back here to choose a bank (the same or another).
  useChooseBankOnReturn(() => service.current?.openInstitutionSelection());
  return (
    <>
      <SiteHeader shop={config.merchantName} />
      <main className="shop">
        <OrderCard
          order={order}
          notice={confirmed && <p className="confirmed">Your order is confirmed. Thank you!</p>}
        >
          <dt>We hold this order for you until</dt>
          <dd data-testid="closes-at">{formatTime(order.closesAt)}</dd>
        </OrderCard>
        {closed && !confirmed ? (
          <section className="closed" aria-labelledby="closed-title">
            <h2 id="closed-title">This order has closed</h2>
            <p>
              We held it for 15 minutes and the time is up, so it can no longer be paid. Nothing has
              been taken for it. Start a new order to pay now.
            </p>
            <button type="button" className="primary" onClick={onStartAgain}>
              Start a new order
            </button>
          </section>
        ) : (
          <ServicePay
            ref={service}
            environment="SANDBOX"
            applicationId={config.applicationId}
            baseUrl={config.sandboxUrl}
            nonce={config.nonce}
            payment={payment}
            extras={extras}
            statusUrl={config.statusUrl}
            reviewContact={REVIEW_CONTACT}
            rememberBank
            featuredInstitutions={FEATURED_BANKS}
            eventConsumer={(event) => {
              // The result page shows this order while the bank has not confirmed yet, and its
              // Try again comes back here.
              if (event === ServiceEvent.PAYMENT_INITIATED) {
                rememberOrder(order);
                rememberCheckout('/');
              }
              log(event);
            }}
            errorConsumer={(error) => setErrors((all) => [...all, error])}
            onHandoffShown={(handoff) => log(`onHandoffShown: ${handoff.institution.name}`)}
            // The outcome of a payment approved on the phone, shown in place by the handoff panel:
            // the shop does here what its result page does (result.tsx).
            onResult={({ status }) => {
              log(`onResult: ${status}`);
              if (status !== 'COMPLETED') return;
              setConfirmed(true);
              document.title = `${DEFAULT_RESULT_MESSAGES.received} – ${config.merchantName}`;
            }}
          />
        )}
        {/* For the developer trying the example, not for the shopper: a real checkout shows none
          of this. Closed by default, so the page reads as a shop; the counts show activity. */}
        <details className="developer">
          <summary>
            Developer panel: {events.length} {events.length === 1 ? 'event' : 'events'},{' '}
            {errors.length} {errors.length === 1 ? 'error' : 'errors'}
          </summary>
          <section aria-labelledby="errors-title">
            <h2 id="errors-title">Errors (errorConsumer)</h2>
            <ErrorList errors={errors} />
          </section>
          <section aria-labelledby="events-title">
            <h2 id="events-title">Events (eventConsumer, onHandoffShown, onResult)</h2>
            <ol aria-label="Events" data-testid="events">
              {events.map((event, index) => (
                <li key={index}>{event}</li>
              ))}
            </ol>
          </section>
          <section aria-labelledby="methods-title">
            <h2 id="methods-title">Methods (ref)</h2>
            {/* The ref handle's payWithInstitution, as a shop's own bank buttons would call it. */}
            <form
              className="controls"
              onSubmit={(event) => {
                event.preventDefault();
                void service.current?.payWithInstitution(institutionId);
              }}
            >
              <label htmlFor="institution-id">Institution id</label>
              <input
                id="institution-id"
                value={institutionId}
                onChange={(event) => setInstitutionId(event.target.value)}
              />
              <button type="submit">payWithInstitution</button>
            </form>
          </section>
        </details>
      </main>
    </>
  );
}

/** Said to the shopper when the shop's server could not give the order. */
function OrderUnavailable() {
  return (
    <>
      <SiteHeader shop={config.merchantName} />
      <main className="shop">
        <h1>Your order</h1>
        <p role="alert">We could not load your order. Please reload the page to try again.</p>
      </main>
    </>
  );
}

const root = createRoot(document.getElementById('root')!);
const render = (page: ReactNode) => root.render(<StrictMode>{page}</StrictMode>);
if (window.location.pathname === '/return') {
  render(<Result shop={config.merchantName} nonce={config.nonce} />);
} else {
  // Asked once, before the checkout renders: the page has nothing to pay until the server
  // has made the order.
  loadOrder().then(
    (order) => render(<Shop first={order} />),
    () => render(<OrderUnavailable />),
  );
}
