// The result page in the shopper's language (issue 49): `locale={cy}` shows no English word in
// any of its states, its root carries `lang`, and a language changed on a mounted page changes
// the words in place (the same heading, focus where it was, the live sentence not read again).
// The status endpoint is a fake fetch (jsdom has no EventSource, so the page polls).
import { StrictMode } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import cy from 'servicepay/locales/cy';
import en from 'servicepay/locales/en';
import { PaymentResult, usePaymentResult } from '../../src/react/index';
import type { PaymentResultProps } from '../../src/react/index';
import type { PaymentStatus } from '../../src/core/index';
import { englishWordsIn } from '../helpers/shopper-text';

const R = cy.result;
/** Polling asks at once, then after 1 s, 2 s, 4 s: room for a round or two on a busy machine. */
const WAIT = { timeout: 10_000 };
const IDS = { paymentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', merchantPaymentId: 'order-1042' };
const CONTACT = 'Ffoniwch ni ar 029 2000 0000.';
const NOTICE = 'Byddwn yn anfon e-bost atoch.';

/** A status endpoint answering `status` each time it is asked. */
const endpoint = (status: PaymentStatus) =>
  vi.fn(async () => new Response(JSON.stringify({ status }))) as unknown as typeof fetch;

beforeEach(() => {
  sessionStorage.clear();
  history.replaceState(null, '', '/checkout/result');
});
afterEach(() => vi.restoreAllMocks());

function renderResult(props: Partial<PaymentResultProps>) {
  const all: PaymentResultProps = {
    statusUrl: '/api/payments/status',
    payment: IDS,
    locale: cy,
    eventSource: false,
    reviewContact: CONTACT,
    pendingNotice: NOTICE,
    onTryAgain: () => undefined,
    ...props,
  };
  const view = render(
    <StrictMode>
      <PaymentResult {...all} />
    </StrictMode>,
  );
  const rerender = (more: Partial<PaymentResultProps>) =>
    view.rerender(
      <StrictMode>
        <PaymentResult {...all} {...more} />
      </StrictMode>,
    );
  return { ...view, rerender };
}

describe('<PaymentResult locale={cy}>', { timeout: 30_000 }, () => {
  it.each([
    ['waiting', { fetch: endpoint('PENDING') }, R.waiting, R.waitingText],
    [
      'still confirming',
      { fetch: endpoint('PENDING'), notHeardAfterMs: 300 },
      R.stillConfirming,
      R.stillConfirmingText,
    ],
    ['received', { fetch: endpoint('COMPLETED') }, R.received, R.receivedText],
    ['not completed', { fetch: endpoint('FAILED') }, R.notCompleted, R.notCompletedText],
    ['to be checked', { fetch: endpoint('NEEDS_REVIEW') }, R.needsReview, R.needsReviewText],
    [
      'not heard',
      { fetch: endpoint('PENDING'), notHeardAfterMs: 300, stopListeningAfterMs: 300 },
      R.notHeard,
      R.notHeardText,
    ],
    ['not found', { payment: undefined, fetch: endpoint('PENDING') }, R.notFound, R.notFoundText],
  ] as const)('no English word: %s', async (_name, props, heading, text) => {
    const { container } = renderResult(props);
    await screen.findByRole('heading', { name: heading }, WAIT);
    expect(screen.getByRole('status')).toHaveTextContent(text);
    const root = container.querySelector('[data-state]')!;
    expect(root).toHaveAttribute('lang', 'cy');
    expect(englishWordsIn(container, [CONTACT, NOTICE])).toEqual([]);
  });

  it('its actions in Welsh: Try again, Check again', async () => {
    renderResult({ fetch: endpoint('FAILED') });
    expect(await screen.findByRole('button', { name: R.tryAgain }, WAIT)).toBeVisible();
    renderResult({ fetch: endpoint('PENDING'), notHeardAfterMs: 300, stopListeningAfterMs: 300 });
    expect(await screen.findByRole('button', { name: R.checkAgain }, WAIT)).toBeVisible();
  });

  it('changes language in place: the same heading, focus kept, the sentence not read again', async () => {
    const view = renderResult({ fetch: endpoint('FAILED'), locale: en });
    const heading = await screen.findByRole('heading', { name: en.result.notCompleted }, WAIT);
    await waitFor(() => expect(heading).toHaveFocus());
    const status = screen.getByRole('status');
    view.rerender({ locale: cy });
    expect(screen.getByRole('heading', { name: R.notCompleted })).toBe(heading);
    expect(heading).toHaveFocus();
    expect(status).toHaveTextContent(R.notCompletedText);
    expect(status).toHaveAttribute('aria-live', 'off');
    expect(view.container.querySelector('[data-state]')).toHaveAttribute('lang', 'cy');
    await waitFor(() => expect(status).not.toHaveAttribute('aria-live'));
  });
});

describe('usePaymentResult({ locale })', () => {
  it('gives the words in the catalogue and their language, for the merchant’s own markup', async () => {
    let seen: ReturnType<typeof usePaymentResult> | undefined;
    function Own() {
      seen = usePaymentResult({
        statusUrl: '/api/payments/status',
        payment: IDS,
        locale: cy,
        eventSource: false,
        fetch: endpoint('COMPLETED'),
      });
      return <p lang={seen.lang}>{seen.text.heading}</p>;
    }
    render(<Own />);
    expect(await screen.findByText(R.received, {}, WAIT)).toHaveAttribute('lang', 'cy');
    expect(seen!.text.text).toBe(R.receivedText);
    await act(async () => undefined);
  });
});
