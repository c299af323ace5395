// The page the bank sends the shopper back to. It shows "paid" only once the shop's own server
// has received the service's verified webhook for the payment: the redirect's query string is
// the shopper's browser talking, and anyone can type it. So the page asks the server, waits
// with words that say why, and stops after a while with advice rather than spin for ever.
import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { ORDER, formatAmount, lastReference } from './order';

/** What the example's server stores once a verified webhook arrived (server.mjs). */
interface StoredPayment {
  paymentStatus: 'COMPLETED' | 'FAILED';
  amount: number;
  reference: string | null;
}

type View =
  | { state: 'waiting' }
  | { state: 'unconfirmed' }
  | { state: 'received'; payment: StoredPayment }
  | { state: 'not-completed'; payment: StoredPayment }
  | { state: 'missing' };

/**
 * How long the page keeps asking. Banks confirm most payments within seconds; a minute also
 * covers a slow bank and the service's first webhook retries. After it the page stops and
 * says what to do; "Check again" asks for another minute.
 */
export const GIVE_UP_AFTER_MS = 60_000;

/** Quick at first (most answers come in a second or two), then gentler on the server. */
const pollDelay = (attempt: number) => Math.min(500 * 1.5 ** attempt, 4000);

function isStoredPayment(value: unknown): value is StoredPayment {
  const v = value as Partial<StoredPayment> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    (v.paymentStatus === 'COMPLETED' || v.paymentStatus === 'FAILED') &&
    typeof v.amount === 'number' &&
    (typeof v.reference === 'string' || v.reference === null)
  );
}

function usePaymentResult(paymentId: string): { view: View; checkAgain(): void } {
  const [view, setView] = useState<View>(paymentId ? { state: 'waiting' } : { state: 'missing' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!paymentId) return;
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const stop = () => {
      done = true;
      clearTimeout(timer);
      clearTimeout(giveUp);
      controller.abort();
    };
    const finish = (next: View) => {
      stop();
      setView(next);
    };
    async function poll(attempt: number) {
      try {
        const response = await fetch(`/api/payments/${encodeURIComponent(paymentId)}`, {
          signal: controller.signal,
          cache: 'no-store',
        });
        // 202: no verified notification yet. 200: the payment as the webhook told it.
        const body: unknown = response.status === 200 ? await response.json() : null;
        if (done) return;
        if (isStoredPayment(body)) {
          return finish(
            body.paymentStatus === 'COMPLETED'
              ? { state: 'received', payment: body }
              : { state: 'not-completed', payment: body },
          );
        }
      } catch {
        // A dropped connection or an odd answer: ask again, until the deadline.
      }
      if (!done) timer = setTimeout(() => void poll(attempt + 1), pollDelay(attempt));
    }
    const giveUp = setTimeout(() => finish({ state: 'unconfirmed' }), GIVE_UP_AFTER_MS);
    setView({ state: 'waiting' });
    void poll(0);
    return stop;
  }, [paymentId, round]);
  return { view, checkAgain: () => setRound((n) => n + 1) };
}

const ICONS: Record<View['state'], ReactNode> = {
  received: <path d="M7.5 12.5l3 3 6-6.5" />,
  'not-completed': <path d="M9 9l6 6m0-6l-6 6" />,
  unconfirmed: <path d="M12 7.5V12l3 2" />,
  missing: <path d="M12 7.5v5m0 3.5v.5" />,
  waiting: <path className="spinner" d="M12 3a9 9 0 0 1 9 9" />,
};

/** The state's picture: a shape that differs per state as well as its colour. */
function StatusIcon({ state }: { state: View['state'] }) {
  return (
    <svg className="result-icon" viewBox="0 0 24 24" width="48" height="48" aria-hidden="true">
      <circle cx="12" cy="12" r="9" />
      {ICONS[state]}
    </svg>
  );
}

function Summary({ amount, reference }: { amount: number; reference: string | null }) {
  return (
    <dl className="summary">
      <div>
        <dt>Item</dt>
        <dd>{ORDER.item}</dd>
      </div>
      <div>
        <dt>Amount</dt>
        <dd>{formatAmount(amount)}</dd>
      </div>
      {reference && (
        <div>
          <dt>Reference</dt>
          <dd>{reference}</dd>
        </div>
      )}
    </dl>
  );
}

const TITLES: Record<View['state'], string> = {
  waiting: 'Waiting for your bank to confirm…',
  received: 'Payment received',
  'not-completed': 'Payment not completed',
  unconfirmed: 'We have not heard from your bank yet',
  missing: 'We could not find this payment',
};

export function Result({ shop }: { shop: string }) {
  const paymentId = new URLSearchParams(window.location.search).get('paymentId') ?? '';
  const { view, checkAgain } = usePaymentResult(paymentId);
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef<View['state'] | null>(null);
  const title = TITLES[view.state];

  // Each change of state is announced by moving focus to the new heading (a screen reader
  // reads it; a keyboard user lands next to the actions). The first state is the page's own
  // start, announced by the page load. No live region as well: it would be read twice.
  useEffect(() => {
    document.title = `${title} – ${shop}`;
    if (shown.current !== null && shown.current !== view.state) heading.current?.focus();
    shown.current = view.state;
  }, [view.state, title, shop]);

  const remembered = lastReference();
  const payment = 'payment' in view ? view.payment : null;
  const reference = payment ? payment.reference : remembered;
  let body: ReactNode;
  switch (view.state) {
    case 'waiting':
      body = <p>This usually takes a few seconds. Please keep this page open.</p>;
      break;
    case 'received':
      body = <p>Thank you. Your payment to {shop} has gone through and your order is confirmed.</p>;
      break;
    case 'not-completed':
      body = (
        <p>
          Your bank did not complete the payment, so no money has been taken. You can try again with
          the same bank or choose another one.
        </p>
      );
      break;
    case 'unconfirmed':
      body = (
        <>
          <p>Your bank has not confirmed this payment to us yet, so we have stopped checking.</p>
          <p>
            Check your banking app. If the payment to {shop} is there, there is nothing more to do:
            we will confirm your order as soon as your bank tells us. If it is not there, no money
            has been taken.
          </p>
          <p>
            {reference ? (
              <>
                Need help? Contact {shop} and quote the reference <strong>{reference}</strong>.
              </>
            ) : (
              // "Contact Example Coffee Co.." would end on two full stops.
              `Need help? Contact ${shop}${shop.endsWith('.') ? '' : '.'}`
            )}
          </p>
        </>
      );
      break;
    case 'missing':
      body = (
        <p>
          This page did not get the details of a payment. If you paid, check your banking app or
          contact {shop}.
        </p>
      );
      break;
  }

  return (
    <>
      <header className="site-header">
        <a href="/">{shop}</a>
      </header>
      <main className="shop">
        <section className="order result" data-state={view.state} aria-labelledby="result-title">
          <StatusIcon state={view.state} />
          <h1 id="result-title" ref={heading} tabIndex={-1}>
            {title}
          </h1>
          {body}
          {view.state !== 'missing' && (
            <Summary amount={payment?.amount ?? ORDER.amount} reference={reference} />
          )}
          <div className="actions">
            {view.state === 'not-completed' && (
              <a className="button primary" href="/?choose-bank">
                Try again
              </a>
            )}
            {view.state === 'unconfirmed' && (
              <button type="button" className="button primary" onClick={checkAgain}>
                Check again
              </button>
            )}
            <a className={view.state === 'received' ? 'button primary' : 'button'} href="/">
              {view.state === 'received' ? 'Continue shopping' : 'Back to the shop'}
            </a>
          </div>
        </section>
      </main>
    </>
  );
}
