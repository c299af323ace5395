// What was paid on the result page (issue 47): the amount, the payee and the reference that the
// shop's status endpoint adds through `expose`, listed under the received and needs-review
// headings as terms and values, in the page's language; nothing when the answer says nothing,
// and nothing malformed. Against the real status endpoint in this process
// (test/helpers/status-endpoint.ts) and, for answers no endpoint of ours sends, a fetch that
// answers as a merchant's own endpoint might. jsdom has no EventSource: the page polls.
import { StrictMode } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import cy from 'servicepay/locales/cy';
import {
  DEFAULT_RESULT_MESSAGES as M,
  PaymentResult,
  usePaymentResult,
} from '../../src/react/index';
import type { PaymentResultProps } from '../../src/react/index';
import type { ExposedFields } from '../../src/webhook/web';
import { englishWordsIn } from '../helpers/shopper-text';
import { inProcessStatusEndpoint } from '../helpers/status-endpoint';
import type { InProcessStatusEndpoint } from '../helpers/status-endpoint';

const WAIT = { timeout: 10_000 };
const IDS = { paymentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', merchantPaymentId: 'order-1042' };
const PAID = { amount: 12.5, payee: 'Example Coffee Co.', reference: 'ORDER-1042' };

let endpoint: InProcessStatusEndpoint | undefined;
beforeEach(() => {
  sessionStorage.clear();
  history.replaceState(null, '', '/checkout/result');
});
afterEach(() => endpoint?.close());

/** The shop's endpoint with this `expose`, and the payment's outcome recorded. */
function shop(status: 'COMPLETED' | 'FAILED' | 'NEEDS_REVIEW', expose?: () => ExposedFields) {
  endpoint = inProcessStatusEndpoint(expose ? { expose } : {});
  endpoint.record(IDS, status);
  return endpoint.fetch;
}

/** An endpoint of the merchant's own, answering `body` to every question. */
const answering =
  (body: unknown): typeof fetch =>
  async () =>
    new Response(JSON.stringify(body));

function renderResult(props: Partial<PaymentResultProps>) {
  return render(
    <StrictMode>
      <PaymentResult
        statusUrl="/api/payments/status"
        payment={IDS}
        eventSource={false}
        {...props}
      />
    </StrictMode>,
  );
}

/** The receipt as the shopper reads it: each term and its value. */
function receipt(): [string, string][] {
  const terms = screen.queryAllByRole('term');
  return terms.map((term) => [term.textContent!, term.nextElementSibling!.textContent!]);
}

describe('<PaymentResult> shows what was paid', { timeout: 30_000 }, () => {
  it('under "Payment received": the amount, whom it was paid to, the reference, as a list', async () => {
    const { container } = renderResult({ fetch: shop('COMPLETED', () => ({ paid: PAID })) });
    const heading = await screen.findByRole('heading', { name: M.received }, WAIT);
    expect(receipt()).toEqual([
      ['Amount', '£12.50'],
      ['Paid to', 'Example Coffee Co.'],
      ['Reference', 'ORDER-1042'],
    ]);
    // After the sentence, in the result's own region, styled by its class; focus on the heading.
    const list = container.querySelector('dl')!;
    expect(list).toHaveClass('service-result-paid');
    expect(screen.getByRole('status').compareDocumentPosition(list)).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('writes the amount as the language writes numbers, with £ (GBP, the one currency)', async () => {
    renderResult({ fetch: shop('COMPLETED', () => ({ paid: { amount: '1234.5' } })) });
    await screen.findByRole('heading', { name: M.received }, WAIT);
    expect(receipt()).toEqual([['Amount', '£1,234.50']]);
  });

  it('under "We need to check this payment": what the shop says, here the reference to quote', async () => {
    renderResult({
      fetch: shop('NEEDS_REVIEW', () => ({ paid: { reference: 'ORDER-1042' } })),
      reviewContact: 'Questions? Email us and quote your reference.',
    });
    await screen.findByRole('heading', { name: M.needsReview }, WAIT);
    expect(receipt()).toEqual([['Reference', 'ORDER-1042']]);
    expect(screen.queryByText(M.received)).toBeNull();
  });

  it('nothing without expose: the endpoint answers { status } alone', async () => {
    const { container } = renderResult({ fetch: shop('COMPLETED') });
    await screen.findByRole('heading', { name: M.received }, WAIT);
    expect(container.querySelector('dl')).toBeNull();
  });

  it('nothing under "Payment not completed", even from an endpoint that sends it', async () => {
    const { container } = renderResult({
      fetch: answering({ status: 'FAILED', paid: PAID }),
      onTryAgain: () => undefined,
    });
    await screen.findByRole('heading', { name: M.notCompleted }, WAIT);
    expect(container.querySelector('dl')).toBeNull();
    expect(container.textContent).not.toContain('£12.50');
  });

  it('nothing malformed: each field that breaks its rule is left out, the rest shown', async () => {
    renderResult({
      fetch: answering({
        status: 'COMPLETED',
        paid: { amount: '12.50', payee: 'Example\nCoffee', reference: 'ORDER-1042', to: 'x' },
      }),
    });
    await screen.findByRole('heading', { name: M.received }, WAIT);
    expect(receipt()).toEqual([['Reference', 'ORDER-1042']]);
  });

  it('nothing at all when no field keeps its rule', async () => {
    const { container } = renderResult({
      fetch: answering({ status: 'COMPLETED', paid: { amount: 12.505, payee: ' ', reference: 7 } }),
    });
    await screen.findByRole('heading', { name: M.received }, WAIT);
    expect(container.querySelector('dl')).toBeNull();
  });

  it('the shop’s text as text: markup in it is shown, never made into elements', async () => {
    const payee = '<img src=x onerror=alert(1)> Caffi & Co';
    const { container } = renderResult({
      fetch: shop('COMPLETED', () => ({ paid: { payee } })),
    });
    await screen.findByRole('heading', { name: M.received }, WAIT);
    expect(receipt()).toEqual([['Paid to', payee]]);
    expect(container.querySelector('img')).toBeNull();
  });

  it('in Welsh, with the root’s lang: Swm, Talwyd i, Cyfeirnod', async () => {
    const { container } = renderResult({
      fetch: shop('COMPLETED', () => ({ paid: PAID })),
      locale: cy,
    });
    await screen.findByRole('heading', { name: cy.result.received }, WAIT);
    expect(receipt()).toEqual([
      ['Swm', '£12.50'],
      ['Talwyd i', 'Example Coffee Co.'],
      ['Cyfeirnod', 'ORDER-1042'],
    ]);
    expect(container.querySelector('[data-state]')).toHaveAttribute('lang', 'cy');
    expect(englishWordsIn(container, [PAID.payee, PAID.reference])).toEqual([]);
  });

  it('in the merchant’s words, with messages', async () => {
    renderResult({
      fetch: shop('COMPLETED', () => ({ paid: PAID })),
      messages: { paidAmount: 'Total', paidTo: 'Merchant' },
    });
    await screen.findByRole('heading', { name: M.received }, WAIT);
    expect(receipt().map(([term]) => term)).toEqual(['Total', 'Merchant', 'Reference']);
  });

  it('with disableVolumeStyling, the same list and no class', async () => {
    const { container } = renderResult({
      fetch: shop('COMPLETED', () => ({ paid: PAID })),
      disableVolumeStyling: true,
    });
    await screen.findByRole('heading', { name: M.received }, WAIT);
    const list = container.querySelector('dl')!;
    expect(list).not.toHaveAttribute('class');
    expect(within(list).getAllByRole('definition')).toHaveLength(3);
  });
});

describe('usePaymentResult', () => {
  it('gives what was paid as paid, for the merchant’s own markup', async () => {
    let seen: ReturnType<typeof usePaymentResult> | undefined;
    const fetch = shop('COMPLETED', () => ({ paid: PAID }));
    function Own() {
      seen = usePaymentResult({ statusUrl: '/s', payment: IDS, eventSource: false, fetch });
      return <h1>{seen.text.heading}</h1>;
    }
    render(<Own />);
    await screen.findByRole('heading', { name: M.received }, WAIT);
    expect(seen!.paid).toEqual(PAID);
  });
});
