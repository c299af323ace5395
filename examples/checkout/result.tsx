// The page the bank sends the shopper back to: the library's <PaymentResult>, which asks the
// shop's own status endpoint (server.mjs) and shows "paid" only once the verified webhook is
// in, never because the return address says so. It finds the payment from that address, or,
// when the bank sends the shopper back with no query string, from the ids the Pay component
// saved in this tab; a payment begun on servicepay/hosted (/hosted), which saves none, from
// the shopper's session on the server (session-result.tsx). Once paid, it lists what was paid
// (amount, payee, reference) from what the status endpoint's `expose` adds from the order the
// server holds (server.mjs). The shop adds its order summary, two sentences in its own words,
// the page title, and where "Try again" goes.
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { DEFAULT_RESULT_MESSAGES } from 'servicepay';
import type { FinalPaymentStatus, PaymentResultMessages, ServiceError } from 'servicepay';
import { formatAmount, lastCheckout, lastOrder } from './order';
import type { Order } from './order';
import { SessionPaymentResult } from './session-result';

/**
 * The shop's own words where it can say more than the library's defaults: it confirms the
 * order, and its Try again reopens the list of banks. Everything else is the library's table.
 */
const shopMessages = (shop: string): Partial<PaymentResultMessages> => ({
  receivedText: `Thank you. Your payment to ${shop} has gone through and your order is confirmed.`,
  notCompletedText:
    'Your bank did not complete the payment, so no money has been taken. You can try again with the same bank or choose another one.',
});

/**
 * How the shopper reaches the shop about a payment it must check by hand (one that does not
 * match its order): shown with the "We need to check this payment" state, here and in the
 * checkout's handoff panel.
 */
export const REVIEW_CONTACT =
  'Questions? Email orders@example-coffee.test and quote your reference.';

/**
 * How the shopper will hear when their bank takes its time (minutes, sometimes hours): shown
 * while the page waits past its first minute, and after it stops listening. The page may be
 * closed meanwhile; the shop's receiver still hears the bank's answer.
 */
export const PENDING_NOTICE = 'We will email you as soon as your bank confirms the payment.';

/**
 * The order this tab sent to the bank: the item, and its amount and reference until the
 * server has said what was paid (`paid`: the result page lists them itself then).
 */
function Summary({ order, paid }: { order: Order; paid: boolean }) {
  return (
    <dl className="summary">
      <div>
        <dt>Item</dt>
        <dd>{order.item}</dd>
      </div>
      {!paid && (
        <>
          <div>
            <dt>Amount</dt>
            <dd>{formatAmount(order.amount)}</dd>
          </div>
          <div>
            <dt>Reference</dt>
            <dd>{order.reference}</dd>
          </div>
        </>
      )}
    </dl>
  );
}

export function Result({ shop, nonce }: { shop: string; nonce: string }) {
  const messages = shopMessages(shop);
  // Remembered by this tab when it sent the shopper to the bank (order.ts); none when the
  // tab paid nothing, and then no order is shown either.
  const order = lastOrder();
  // The outcome, once known: the server's `expose` says what was paid with COMPLETED and
  // NEEDS_REVIEW (orders.mjs, `paid`), and the summary then leaves it to the result page.
  const [outcome, setOutcome] = useState<FinalPaymentStatus | null>(null);
  return (
    <>
      <SiteHeader shop={shop} />
      <main className="shop">
        <SessionPaymentResult
          statusUrl="/api/payments/status"
          headingLevel={1}
          nonce={nonce}
          messages={messages}
          // The tab's title follows the outcome, for a shopper who switched tabs meanwhile.
          onResult={({ status }) => {
            setOutcome(status);
            const words = { ...DEFAULT_RESULT_MESSAGES, ...messages };
            const heading = {
              COMPLETED: words.received,
              FAILED: words.notCompleted,
              // Paid at the bank, but not what the order asked (server.mjs, expectedPayment).
              NEEDS_REVIEW: words.needsReview,
            }[status];
            document.title = `${heading} – ${shop}`;
          }}
          reviewContact={REVIEW_CONTACT}
          pendingNotice={PENDING_NOTICE}
          // Back to the checkout the tab paid from, with the banks open (app.tsx and
          // hosted.tsx read ?choose-bank), the same order ready.
          onTryAgain={() => window.location.assign(`${lastCheckout()}?choose-bank`)}
        >
          {order && <Summary order={order} paid={outcome !== null && outcome !== 'FAILED'} />}
          <p>
            <a href="/">Back to the shop</a>
          </p>
        </SessionPaymentResult>
      </main>
    </>
  );
}

/**
 * The checkout's side of Try again, which comes back with `?choose-bank` (above): the list of
 * banks, opened at once by `open` (the ref handle's openInstitutionSelection), and the address
 * made plain again, so that a reload does not open it twice.
 */
export function useChooseBankOnReturn(open: () => void) {
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    if (!query.has('choose-bank')) return;
    window.history.replaceState(null, '', window.location.pathname);
    open();
    // Once, on the checkout's first render: `open` reads the handle when called.
  }, []);
}

/** The shop's name above every page, checkout and result alike: a link home. */
export function SiteHeader({ shop }: { shop: string }) {
  return (
    <header className="site-header">
      <a href="/">{shop}</a>
    </header>
  );
}

/**
 * The order as the shop's server made it, on both checkouts: what is bought and its price, and
 * the payment reference the shopper's banking app will show (read-only: the server chose it,
 * and checks that the payment carries it). `children` adds the page's own lines to the list.
 */
export function OrderCard({
  order,
  notice,
  children,
}: {
  order: Order;
  /** A line under the price: the checkout's "confirmed". */
  notice?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className="order" aria-labelledby="order-title">
      <h1 id="order-title">Your order</h1>
      <p>
        {order.item} — {formatAmount(order.amount)}
      </p>
      {notice}
      <dl>
        <dt>Payment reference (shown in your banking app)</dt>
        <dd data-testid="reference">{order.reference}</dd>
        {children}
      </dl>
    </section>
  );
}

/** The payment of an order: one object for the order's life, so the component applies it once. */
export function useOrderPayment(order: Order) {
  const [payment] = useState(() => ({
    amount: order.amount,
    paymentReference: order.reference,
    metadata: { orderId: order.orderId },
  }));
  return payment;
}

/** The errors the component gave errorConsumer, for the developer panel of both checkouts. */
export function ErrorList({ errors }: { errors: readonly ServiceError[] }) {
  return (
    <ul aria-label="Errors" data-testid="errors">
      {errors.map((error, index) => (
        <li key={index}>
          {error.location}: {error.error}
        </li>
      ))}
    </ul>
  );
}
