// <PaymentResult> while a payment takes its time (issue 45): the still-confirming state and its
// words, the shop's own sentence, the horizon, and an outcome that lands half an hour in, on
// vitest's fake clock against the real status endpoint in this process
// (test/helpers/status-endpoint.ts). jsdom has no EventSource: the page polls, as it does from
// its first minute on anyway. axe and the colours are checked in real browsers: the stories
// (stories/PaymentResult.stories.tsx) run axe on each of these states, light and dark.
import { StrictMode } from 'react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_RESULT_MESSAGES as M,
  PaymentResult,
  usePaymentResult,
} from '../../src/react/index';
import type { PaymentResultProps } from '../../src/react/index';
import { developerTextIn } from '../helpers/shopper-text';
import { inProcessStatusEndpoint } from '../helpers/status-endpoint';
import type { InProcessStatusEndpoint } from '../helpers/status-endpoint';

const IDS = { paymentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', merchantPaymentId: 'order-1042' };
const MINUTE = 60_000;
const NOTICE = 'We’ll email you at j•••@example.com as soon as your bank confirms.';
const CONTACT = 'Questions? Call us on 020 7946 0000, 9am to 5pm.';

let endpoint: InProcessStatusEndpoint;
beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  endpoint = inProcessStatusEndpoint();
});
afterEach(async () => {
  await endpoint.close();
  vi.useRealTimers();
});

function renderResult(props: Partial<PaymentResultProps> = {}) {
  const onResult = vi.fn();
  const view = render(
    <StrictMode>
      <PaymentResult
        statusUrl={endpoint.statusUrl}
        payment={IDS}
        fetch={endpoint.fetch}
        onResult={onResult}
        pendingNotice={NOTICE}
        reviewContact={CONTACT}
        {...props}
      />
    </StrictMode>,
  );
  const root = () => view.container.querySelector('[data-state]')!;
  return { ...view, onResult, root };
}

/** Lets `ms` of the fake clock pass, with React's updates and effects. */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('<PaymentResult> while the bank takes its time', () => {
  it('after a minute: the bank is still confirming, the shopper may close the page, the shop’s sentence, nothing to press', async () => {
    const { root, onResult } = renderResult();
    await pass(59_000);
    expect(root()).toHaveAttribute('data-state', 'waiting');
    expect(root()).not.toHaveTextContent(NOTICE);
    await pass(1000);
    const heading = screen.getByRole('heading', { name: M.stillConfirming });
    expect(heading).toHaveFocus();
    expect(root()).toHaveAttribute('data-state', 'still-confirming');
    expect(screen.getByRole('status')).toHaveTextContent(M.stillConfirmingText);
    expect(M.stillConfirmingText).toMatch(/you can close this page/i);
    expect(screen.getByText(NOTICE).tagName).toBe('P');
    // No dead end and no button: it goes on by itself. The review contact is not for this state.
    expect(screen.queryByRole('button')).toBeNull();
    expect(root()).not.toHaveTextContent(CONTACT);
    expect(root()).not.toHaveTextContent(/received/i);
    expect(onResult).not.toHaveBeenCalled();
    expect(developerTextIn(root() as HTMLElement)).toBeUndefined();
  });

  it('an outcome recorded at 10 minutes takes the page’s place by itself', async () => {
    const { root, onResult } = renderResult();
    await pass(10 * MINUTE);
    expect(root()).toHaveAttribute('data-state', 'still-confirming');
    endpoint.record(IDS, 'COMPLETED');
    await pass(MINUTE);
    const heading = screen.getByRole('heading', { name: M.received });
    expect(heading).toHaveFocus();
    expect(root()).not.toHaveTextContent(NOTICE);
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'COMPLETED' }]]);
  });

  it('a payment the shop checks, landing late: never “Payment received”', async () => {
    const { root } = renderResult();
    await pass(20 * MINUTE);
    endpoint.record(IDS, 'NEEDS_REVIEW');
    await pass(MINUTE);
    expect(screen.getByRole('heading', { name: M.needsReview })).toHaveFocus();
    expect(root()).toHaveTextContent(CONTACT);
    expect(root().textContent).not.toMatch(/received|no money/i);
  });

  it('past the horizon: not heard, with Check again, the shop’s sentence and its contact', async () => {
    const { root } = renderResult();
    await pass(31 * MINUTE);
    expect(screen.getByRole('heading', { name: M.notHeard })).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent(M.notHeardText);
    expect(root()).toHaveTextContent(NOTICE);
    expect(root()).toHaveTextContent(CONTACT);
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([M.checkAgain]);
  });

  it('shows the shop’s sentence as text only, and nothing without one', async () => {
    const { root, rerender } = renderResult({ pendingNotice: '<b>We’ll email you</b>' });
    await pass(MINUTE);
    expect(root()).toHaveTextContent('<b>We’ll email you</b>');
    expect(root().querySelector('b')).toBeNull();
    rerender(
      <StrictMode>
        <PaymentResult
          statusUrl={endpoint.statusUrl}
          payment={IDS}
          fetch={endpoint.fetch}
          pendingNotice={42 as unknown as string}
        />
      </StrictMode>,
    );
    expect(root().querySelectorAll('p')).toHaveLength(1);
  });

  it('speaks the merchant’s words for the new state', async () => {
    renderResult({
      messages: {
        stillConfirming: 'Votre banque confirme encore',
        stillConfirmingText: 'Patience.',
      },
    });
    await pass(MINUTE);
    expect(
      screen.getByRole('heading', { name: 'Votre banque confirme encore' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Patience.');
  });
});

describe('usePaymentResult while the bank takes its time', () => {
  it('gives the still-confirming state and its words to a page of the merchant’s own', async () => {
    function OwnPage() {
      const result = usePaymentResult({
        statusUrl: endpoint.statusUrl,
        payment: IDS,
        fetch: endpoint.fetch,
        stopListeningAfterMs: 10 * MINUTE,
      });
      return (
        <main data-state={result.state}>
          <h1>{result.text.heading}</h1>
          <p>{result.text.text}</p>
        </main>
      );
    }
    render(<OwnPage />);
    await pass(MINUTE);
    expect(screen.getByRole('heading', { name: M.stillConfirming })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('data-state', 'still-confirming');
    await pass(10 * MINUTE);
    expect(screen.getByRole('heading', { name: M.notHeard })).toBeInTheDocument();
  });
});
