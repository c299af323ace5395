// The result page for a bank that sends the shopper back with no query (docs/going-live.md,
// "When the bank drops the query"). servicepay/hosted cannot save the payment before the bank,
// as the root <ServicePay> does, so when neither the address nor this tab names a payment, the
// page asks the shop's server which payment the shopper's session is paying (the session's
// cookie is all the browser sends), and <PaymentResult> follows that payment from the
// receiver's records, as for any other return. Until the server's receiver has heard of the
// payment, the page says it is waiting, in the result page's words.
'use client';

import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { NOT_HEARD_AFTER_MS, PaymentResult, SAVED_PAYMENT_KEY } from 'servicepay';
import type { PaymentIds, PaymentResultProps } from 'servicepay';
import { languageOf, resolveResultMessages } from 'servicepay/core';

/** Where the shop's server names the payment of the shopper's session (GET, JSON). */
const SESSION_PAYMENT_URL = '/api/checkout/payment';

/**
 * The server's answer: the session's payment once its receiver has heard of it; `waiting`
 * while it has not; neither when the session has no order with a payment begun.
 */
interface SessionAnswer {
  payment: PaymentIds | null;
  waiting: boolean;
}

/** What the page learnt: the payment to follow, none at all, or not yet (then, not in time). */
type Asked = { payment: PaymentIds } | 'none' | 'waiting' | 'not-heard';

/** `<PaymentResult>` with its props, on the payment the address, the tab or the session names. */
export function SessionPaymentResult(props: PaymentResultProps) {
  // Read in the browser only: on the server, and while hydrating, the page is waiting.
  const named = useSyncExternalStore(unchanging, addressOrTabNamesPayment, () => null);
  if (named === null) return <Asking {...props} state="waiting" />;
  if (named) return <PaymentResult {...props} />;
  return <FromSession {...props} />;
}

function FromSession(props: PaymentResultProps) {
  const [asked, setAsked] = useState<Asked>('waiting');
  useEffect(() => {
    if (asked !== 'waiting') return;
    const controller = new AbortController();
    askSession(controller.signal, Date.now() + (props.notHeardAfterMs ?? NOT_HEARD_AFTER_MS)).then(
      setAsked,
      () => {}, // aborted: the page went away
    );
    return () => controller.abort();
  }, [asked, props.notHeardAfterMs]);
  if (typeof asked === 'object') return <PaymentResult {...props} payment={asked.payment} />;
  // No order with a payment in this session: the result page's own "can't find your payment".
  if (asked === 'none') return <PaymentResult {...props} />;
  return <Asking {...props} state={asked} onCheckAgain={() => setAsked('waiting')} />;
}

/**
 * Asks the server until it names the payment (its receiver has heard of it) or says there is
 * none, 1 s, 2 s, 4 s, then 5 s apart, and at most until `until` (a time, in ms).
 */
async function askSession(signal: AbortSignal, until: number): Promise<Exclude<Asked, 'waiting'>> {
  for (let spacing = 1000; ; spacing = Math.min(spacing * 2, 5000)) {
    try {
      const response = await fetch(SESSION_PAYMENT_URL, {
        signal,
        headers: { Accept: 'application/json' },
      });
      if (response.ok) {
        const { payment, waiting } = (await response.json()) as SessionAnswer;
        if (payment) return { payment };
        if (!waiting) return 'none';
      }
    } catch (error) {
      if (signal.aborted) throw error;
      // The network or the server failed: asked again, as for a payment not heard of yet.
    }
    if (Date.now() + spacing > until) return 'not-heard';
    await new Promise<void>((resolve, reject) => {
      const stop = () => (clearTimeout(timer), reject(signal.reason));
      const timer = setTimeout(
        () => (signal.removeEventListener('abort', stop), resolve()),
        spacing,
      );
      signal.addEventListener('abort', stop, { once: true });
    });
  }
}

/** While the server has not named the payment: the result page's words for waiting, or not heard. */
function Asking(
  props: PaymentResultProps & { state: 'waiting' | 'not-heard'; onCheckAgain?: () => void },
) {
  const { state, headingLevel = 2, pendingNotice, reviewContact, children } = props;
  const words = resolveResultMessages(props.messages, props.locale);
  const Heading = `h${headingLevel}` as 'h2';
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef<string | null>(null);
  // A new state's heading takes focus, as <PaymentResult>'s do (not the first one's).
  useEffect(() => {
    if (shown.current !== null && shown.current !== state) heading.current?.focus();
    shown.current = state;
  }, [state]);
  return (
    <section
      className="session-result"
      data-state={state}
      lang={languageOf(props.locale, 'result')}
    >
      <Heading ref={heading} tabIndex={-1}>
        {state === 'waiting' ? words.waiting : words.notHeard}
      </Heading>
      <p role="status">{state === 'waiting' ? words.waitingText : words.notHeardText}</p>
      {state === 'not-heard' && (
        <>
          {pendingNotice && <p>{pendingNotice}</p>}
          {reviewContact && <p>{reviewContact}</p>}
          <button type="button" onClick={props.onCheckAgain}>
            {words.checkAgain}
          </button>
        </>
      )}
      {children}
    </section>
  );
}

/** Whether <PaymentResult> finds the payment itself: ids in the address, or saved in this tab. */
function addressOrTabNamesPayment(): boolean {
  const query = new URLSearchParams(window.location.search);
  if (query.has('paymentId') || query.has('merchantPaymentId')) return true;
  try {
    return sessionStorage.getItem(SAVED_PAYMENT_KEY) !== null;
  } catch {
    return false; // storage blocked: nothing was saved
  }
}

/** The address and the tab's storage do not change while the page decides. */
const unchanging = () => () => {};
