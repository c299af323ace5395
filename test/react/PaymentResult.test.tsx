// The result page (<PaymentResult>, usePaymentResult) against a real node:http status
// endpoint (test/helpers/status-server.ts). jsdom has no EventSource, so these tests take the
// polling path with the real fetch; the event stream is tested in Chromium
// (test/e2e/payment-result.test.ts).
import { StrictMode } from 'react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_RESULT_MESSAGES,
  PaymentResult,
  SAVED_PAYMENT_KEY,
  usePaymentResult,
} from '../../src/react/index';
import type { PaymentResultProps } from '../../src/react/index';
import type { PaymentResultState } from '../../src/core/index';
import { ResultIcon } from '../../src/react/ResultIcon';
import { createFakeTransport, defaultInitiatedPayment } from '../helpers/fake-transport';
import { developerTextIn } from '../helpers/shopper-text';
import { startStatusServer } from '../helpers/status-server';
import type { StatusServer } from '../helpers/status-server';
import { renderServicePay } from './render';

const M = DEFAULT_RESULT_MESSAGES;
/** Polling waits 1 s, then 2 s, 4 s: room for a few rounds on a busy machine. */
const WAIT = { timeout: 15_000 };
const IDS = { paymentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', merchantPaymentId: 'order-1042' };

let server: StatusServer;
beforeEach(async () => {
  server = await startStatusServer();
  sessionStorage.clear();
  history.replaceState(null, '', '/checkout/result');
});
afterEach(() => server.close());

/** The page the bank sends the shopper back to, with this query string. */
const returnTo = (query: string) => history.replaceState(null, '', `/checkout/result${query}`);
const withIds = `?paymentId=${IDS.paymentId}&merchantPaymentId=${IDS.merchantPaymentId}`;

function renderResult(props: Partial<PaymentResultProps> = {}) {
  const onResult = vi.fn();
  const all: PaymentResultProps = { statusUrl: server.statusUrl, onResult, ...props };
  // StrictMode: effects run twice, as in a React app's development build.
  const view = render(
    <StrictMode>
      <PaymentResult {...all} />
    </StrictMode>,
  );
  return { ...view, onResult, user: userEvent.setup() };
}

const heading = (name: string) => screen.findByRole('heading', { name }, WAIT);

describe('<PaymentResult> finds the payment', { timeout: 30_000 }, () => {
  it('from the return address, and asks the endpoint about exactly those ids', async () => {
    server.record(IDS, 'COMPLETED');
    returnTo(withIds);
    renderResult();
    await heading(M.received);
    expect(server.requests[0]).toMatchObject({ ...IDS, accept: 'application/json', code: 200 });
    // The address still names the payment: a reload, a bookmark or a link in an email opened
    // in another tab, hours later (no sessionStorage there), finds it and shows its outcome.
    expect(location.href).toBe(`${location.origin}/checkout/result${withIds}`);
    cleanup();
    sessionStorage.clear();
    renderResult();
    await heading(M.received);
    expect(server.requests.at(-1)).toMatchObject(IDS);
  });

  it('from this tab’s saved payment when the bank returns with no query: the address then names it, for a bookmark', async () => {
    sessionStorage.setItem(SAVED_PAYMENT_KEY, JSON.stringify(IDS));
    server.record(IDS, 'COMPLETED');
    returnTo('?step=2');
    renderResult();
    await heading(M.received);
    expect(location.search).toBe(`?step=2&${withIds.slice(1)}`);
    // The address bookmarked, opened in a new tab: nothing saved there.
    cleanup();
    sessionStorage.clear();
    renderResult();
    await heading(M.received);
    expect(server.requests.at(-1)).toMatchObject(IDS);
  });

  it('from a later return address in a tab that started no payment', async () => {
    const other = { ...IDS, paymentId: '3d2b1f0e-9c8a-4b6d-8e7f-1a2b3c4d5e6f' };
    server.record(IDS, 'COMPLETED');
    server.record(other, 'FAILED');
    returnTo(withIds);
    renderResult();
    await heading(M.received);
    cleanup();
    returnTo(`?paymentId=${other.paymentId}&merchantPaymentId=${other.merchantPaymentId}`);
    renderResult();
    await heading(M.notCompleted);
  });

  it("this tab's own saved payment over another payment the address names", async () => {
    const own = { ...IDS, paymentId: '3d2b1f0e-9c8a-4b6d-8e7f-1a2b3c4d5e6f' };
    sessionStorage.setItem(SAVED_PAYMENT_KEY, JSON.stringify(own));
    server.record(IDS, 'COMPLETED');
    returnTo(`${withIds}&step=2`);
    const { onResult } = renderResult();
    await waitFor(() => expect(server.requests.length).toBeGreaterThan(0));
    expect(server.requests[0]).toMatchObject(own);
    // The address names the payment the page follows, the rest of it kept.
    expect(location.search).toBe(
      `?paymentId=${own.paymentId}&merchantPaymentId=${own.merchantPaymentId}&step=2`,
    );
    expect(screen.getByRole('heading', { name: M.waiting })).toBeInTheDocument();
    expect(onResult).not.toHaveBeenCalled();
  });

  it('from what a real <ServicePay> saved before opening the bank, when the bank returns with no query', async () => {
    const transport = createFakeTransport();
    const pay = renderServicePay({ transport });
    await pay.user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    await pay.user.click(await screen.findByRole('button', { name: 'Monzo' }));
    await waitFor(() => expect(pay.openUrl).toHaveBeenCalledTimes(1));
    const paid = {
      paymentId: defaultInitiatedPayment(1).paymentId,
      merchantPaymentId: transport.paymentRequests[0]!.merchantPaymentId,
    };
    // Ids only: nothing of the shopper, the amount or the bank.
    expect(JSON.parse(sessionStorage.getItem(SAVED_PAYMENT_KEY)!)).toEqual(paid);
    pay.unmount();

    server.record(paid, 'COMPLETED');
    returnTo('');
    renderResult();
    await heading(M.received);
    expect(
      server.requests.map(({ paymentId, merchantPaymentId }) => ({ paymentId, merchantPaymentId })),
    ).toContainEqual(paid);
  });

  it('with only the paymentId in the address: the saved pair when it is that payment', async () => {
    sessionStorage.setItem(SAVED_PAYMENT_KEY, JSON.stringify(IDS));
    server.record(IDS, 'COMPLETED');
    returnTo(`?paymentId=${IDS.paymentId}`);
    renderResult();
    await heading(M.received);
  });

  it('not at all: says so in plain words, and asks nothing', async () => {
    // Nothing saved in this tab, and an address with one id of the two.
    returnTo('?paymentId=another-payment');
    const { container, onResult } = renderResult();
    const title = await heading(M.notFound);
    expect(screen.getByRole('status')).toHaveTextContent(M.notFoundText);
    await waitFor(() => expect(title).toHaveFocus());
    expect(container.querySelector('[data-state]')).toHaveAttribute('data-state', 'not-found');
    expect(screen.queryByRole('button')).toBeNull();
    expect(server.requests).toEqual([]);
    expect(onResult).not.toHaveBeenCalled();
    expect(developerTextIn(container)).toBeUndefined();
  });

  it('not from storage that holds something else', async () => {
    sessionStorage.setItem(SAVED_PAYMENT_KEY, '{"paymentId":42}');
    renderResult();
    await heading(M.notFound);
  });
});

describe('<PaymentResult> follows the endpoint', { timeout: 30_000 }, () => {
  it('waiting → received: focus on each new heading, onResult once', async () => {
    returnTo(withIds);
    const { container, onResult, rerender } = renderResult();
    expect(screen.getByRole('heading', { name: M.waiting })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(M.waitingText);
    // The address holds the ids, not the outcome: the page waits for the endpoint.
    await waitFor(() => expect(server.requests.length).toBeGreaterThan(0));
    expect(screen.getByRole('heading', { name: M.waiting })).toBeInTheDocument();

    server.record(IDS, 'COMPLETED');
    const received = await heading(M.received);
    await waitFor(() => expect(received).toHaveFocus());
    expect(screen.getByRole('status')).toHaveTextContent(M.receivedText);
    expect(container.querySelector('[data-state]')).toHaveAttribute('data-state', 'received');
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'COMPLETED' }]]);

    // A new render with a new callback reports nothing again, and asks nothing more.
    const asked = server.requests.length;
    const again = vi.fn();
    rerender(
      <StrictMode>
        <PaymentResult statusUrl={server.statusUrl} onResult={again} />
      </StrictMode>,
    );
    expect(again).not.toHaveBeenCalled();
    expect(onResult).toHaveBeenCalledTimes(1);
    expect(server.requests).toHaveLength(asked);
  });

  it('FAILED → not completed, whose Try again calls the merchant’s callback', async () => {
    server.record(IDS, 'FAILED');
    returnTo(withIds);
    const onTryAgain = vi.fn();
    const { onResult, user } = renderResult({ onTryAgain });
    const title = await heading(M.notCompleted);
    await waitFor(() => expect(title).toHaveFocus());
    expect(screen.getByRole('status')).toHaveTextContent(M.notCompletedText);
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'FAILED' }]]);
    await user.click(screen.getByRole('button', { name: M.tryAgain }));
    expect(onTryAgain).toHaveBeenCalledTimes(1);
  });

  it('NEEDS_REVIEW → “We need to check this payment”: its own words, picture and the shop’s contact, onResult once, no action', async () => {
    returnTo(withIds);
    const contact = 'Questions? Call us on 020 7946 0000, 9am to 5pm.';
    const { container, onResult } = renderResult({ onTryAgain: vi.fn(), reviewContact: contact });
    await waitFor(() => expect(server.requests.length).toBeGreaterThan(0));
    server.record(IDS, 'NEEDS_REVIEW');
    const title = await heading(M.needsReview);
    await waitFor(() => expect(title).toHaveFocus());
    expect(screen.getByRole('status')).toHaveTextContent(M.needsReviewText);
    expect(screen.getByText(contact)).toBeInTheDocument();
    const root = container.querySelector('[data-state]')!;
    expect(root).toHaveAttribute('data-state', 'needs-review');
    // Calm and plain: not received, not “no money has been taken”, nothing to pay again with.
    expect(root.textContent).not.toMatch(/received|no money/i);
    expect(screen.queryByRole('button')).toBeNull();
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'NEEDS_REVIEW' }]]);
    // A picture of its own: neither the tick of received nor the cross of not completed.
    const picture = (state: PaymentResultState) =>
      render(<ResultIcon state={state} />).container.innerHTML;
    const shown = root.querySelector('svg')!.outerHTML.replace(/ class="[^"]*"/, '');
    expect([picture('received'), picture('not-completed')]).not.toContain(shown);
    expect(shown).toBe(picture('needs-review'));
    expect(developerTextIn(container)).toBeUndefined();
  });

  it('shows no contact in other states, and only text', async () => {
    server.record(IDS, 'COMPLETED');
    returnTo(withIds);
    const { container } = renderResult({ reviewContact: 'Call us.' });
    await heading(M.received);
    expect(container).not.toHaveTextContent('Call us.');
  });

  it('offers no Try again that does nothing when the merchant wired none', async () => {
    server.record(IDS, 'FAILED');
    returnTo(withIds);
    renderResult();
    await heading(M.notCompleted);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('not heard after the horizon; Check again resumes and the outcome arrives', async () => {
    returnTo(withIds);
    const { onResult, user } = renderResult({ notHeardAfterMs: 300, stopListeningAfterMs: 300 });
    const title = await heading(M.notHeard);
    await waitFor(() => expect(title).toHaveFocus());
    expect(screen.getByRole('status')).toHaveTextContent(M.notHeardText);
    expect(onResult).not.toHaveBeenCalled();

    server.record(IDS, 'COMPLETED');
    const asked = server.requests.length;
    await user.click(screen.getByRole('button', { name: M.checkAgain }));
    // Resumed at once: the next answer is the recorded one.
    await heading(M.received);
    expect(server.requests.length).toBeGreaterThan(asked);
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'COMPLETED' }]]);
  });

  it('keeps asking through error answers, and takes only a well-formed status', async () => {
    returnTo(withIds);
    const answers = ['not json', '{"status":"PAID"}', '{"status":"COMPLETED"}'];
    const fetch = vi.fn(async () => new Response(answers.shift() ?? '{}', { status: 200 }));
    renderResult({ fetch: fetch as typeof globalThis.fetch });
    await heading(M.received);
    expect(fetch).toHaveBeenCalledTimes(3);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(new URL(url).searchParams.get('paymentId')).toBe(IDS.paymentId);
    expect(init.headers).toEqual({ Accept: 'application/json' });
  });

  it('stops reading an answer without end, and asks again', async () => {
    returnTo(withIds);
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new TextEncoder().encode('{"status":"PENDING"   ')),
      cancel: () => void (cancelled = true),
    });
    const answers = [endless, '{"status":"COMPLETED"}'];
    const fetch = vi.fn(async () => new Response(answers.shift() ?? '{}'));
    renderResult({ fetch: fetch as typeof globalThis.fetch });
    await heading(M.received);
    expect(cancelled).toBe(true);
  });

  it('speaks the merchant’s words', async () => {
    server.record(IDS, 'COMPLETED');
    returnTo(withIds);
    renderResult({ messages: { received: 'Paiement reçu', receivedText: 'Merci.' } });
    await heading('Paiement reçu');
    expect(screen.getByRole('status')).toHaveTextContent('Merci.');
  });
});

describe('usePaymentResult', { timeout: 30_000 }, () => {
  it('gives the state, its words and the actions to a page of the merchant’s own', async () => {
    returnTo(withIds);
    function OwnPage() {
      const result = usePaymentResult({
        statusUrl: server.statusUrl,
        notHeardAfterMs: 300,
        stopListeningAfterMs: 300,
      });
      return (
        <main data-state={result.state}>
          <h1>{result.text.heading}</h1>
          {result.state === 'not-heard' && (
            <button type="button" onClick={result.checkAgain}>
              Look again
            </button>
          )}
        </main>
      );
    }
    render(<OwnPage />);
    await heading(M.notHeard);
    server.record(IDS, 'FAILED');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Look again' }));
    await heading(M.notCompleted);
  });

  it('refuses a missing statusUrl with a message that says what to pass', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<PaymentResult statusUrl="" />)).toThrow(
      /^servicepay: the payment result needs statusUrl/,
    );
    vi.restoreAllMocks();
  });
});
