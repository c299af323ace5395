// The page the bank sends the shopper back to: the library's <PaymentResult>, which asks the
// shop's own status endpoint (server.mjs) and shows "paid" only once the verified webhook is
// in, never because the return address says so. It finds the payment from that address, or,
// when the bank sends the shopper back with no query string, from the ids the Pay component
// saved in this tab. Once paid, it lists what was paid (amount, payee, reference) from what the
// status endpoint's `expose` adds from the order the server holds (server.mjs). The shop adds
// its order summary, two sentences in its own words, the page title, and where "Try again" goes.
import { useState } from 'react';
import { DEFAULT_RESULT_MESSAGES, PaymentResult } from 'servicepay';
import type { FinalPaymentStatus, PaymentResultMessages } from 'servicepay';
import { formatAmount, lastOrder } from './order';
import type { Order } from './order';

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
        <PaymentResult
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
          // Back to the checkout with the banks open (app.tsx reads ?choose-bank), the same
          // order ready.
          onTryAgain={() => window.location.assign('/?choose-bank')}
        >
          {order && <Summary order={order} paid={outcome !== null && outcome !== 'FAILED'} />}
          <p>
            <a href="/">Back to the shop</a>
          </p>
        </PaymentResult>
      </main>
    </>
  );
}

/** The shop's name above every page, checkout and result alike: a link home. */
export function SiteHeader({ shop }: { shop: string }) {
  return (
    <header className="site-header">
      <a href="/">{shop}</a>
    </header>
  );
}
