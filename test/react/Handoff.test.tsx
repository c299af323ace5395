// The desktop handoff panel (<HandoffPanel>, src/react/Handoff.tsx) and its QR code
// (src/react/qr.ts) in jsdom, with React. The status endpoint is a fake fetch: jsdom has no
// EventSource, so the panel polls. That the code scans (drawn by a real browser, read back
// by a decoder) is in test/e2e/qr-render.test.ts.
import { StrictMode } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_HANDOFF_MESSAGES as H, DEFAULT_RESULT_MESSAGES as M } from '../../src/core/index';
import type { Handoff, PaymentStatus } from '../../src/core/index';
import { HandoffPanel } from '../../src/react/Handoff';
import type { HandoffPanelProps } from '../../src/react/Handoff';
import { qrPath } from '../../src/react/qr';
import { developerTextIn } from '../helpers/shopper-text';

/** Polling asks at once, then after 1 s, 2 s, 4 s: room for a round or two on a busy machine. */
const WAIT = { timeout: 10_000 };
const URL_ =
  'https://auth.examplebank.co.uk/oauth2/authorize?client_id=sp-merchant-1042&response_type=code&scope=payments&state=Yz8fQ1xK0a&consent=pc-4fd0a9e1';
const HANDOFF: Handoff = {
  url: URL_,
  paymentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  merchantPaymentId: 'order-1042',
  institution: { id: 'barclays', name: 'Barclays' },
};
const IDS = { paymentId: HANDOFF.paymentId, merchantPaymentId: HANDOFF.merchantPaymentId };

/** ServicePayView's `cx`, styled or plain, with or without utility classes. */
const cxFor =
  (plain = false, utilities = false) =>
  (service: string, utility?: string) =>
    [plain ? '' : service, utilities ? utility : ''].filter(Boolean).join(' ') || undefined;

/** A status endpoint that answers `status()` each time it is asked. */
function statusEndpoint(initial: PaymentStatus = 'PENDING') {
  let status = initial;
  const fetch = vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify({ status })),
  );
  return {
    fetch,
    set: (next: PaymentStatus) => void (status = next),
    asked: () => fetch.mock.calls.map(([input]) => new URL(String(input))),
  };
}

function renderPanel(props: Partial<HandoffPanelProps> = {}) {
  const endpoint = statusEndpoint();
  const onContinueHere = vi.fn();
  const onTryAgain = vi.fn();
  const onResult = vi.fn();
  const all: HandoffPanelProps = {
    handoff: HANDOFF,
    statusUrl: '/api/payments/status',
    cx: cxFor(),
    id: 'sp-',
    onContinueHere,
    onTryAgain,
    onResult,
    fetch: endpoint.fetch,
    ...props,
  };
  // StrictMode: effects run twice, as in a React app's development build.
  const view = render(
    <StrictMode>
      <HandoffPanel {...all} />
    </StrictMode>,
  );
  const rerender = (more: Partial<HandoffPanelProps>) =>
    view.rerender(
      <StrictMode>
        <HandoffPanel {...all} {...more} />
      </StrictMode>,
    );
  return {
    ...view,
    rerender,
    endpoint,
    onContinueHere,
    onTryAgain,
    onResult,
    user: userEvent.setup(),
  };
}

const panel = () => screen.getByRole('region');
const qr = () => screen.queryByRole('img', { name: H.qrAlt('Barclays') });

describe('qrPath', () => {
  it('is the same for the same text, one rectangle per run of dark modules', () => {
    const a = qrPath(URL_);
    expect(qrPath(URL_)).toEqual(a);
    // Level M, byte mode: 150 characters need version 8, 49 modules a side.
    expect(a.size).toBe(49);
    expect(a.d).toMatch(/^(M\d+ \d+h(\d+)v1h-\2z)+$/);
    // Every rectangle is inside the code, and none touches the next in its row (runs merged).
    const runs = [...a.d.matchAll(/M(\d+) (\d+)h(\d+)/g)].map(([, x, y, n]) => [+x!, +y!, +n!]);
    for (const [x = 0, y = 0, n = 0] of runs) {
      expect(x + n).toBeLessThanOrEqual(a.size);
      expect(y).toBeLessThan(a.size);
    }
    for (let i = 1; i < runs.length; i++) {
      const [px, py, pn] = runs[i - 1]!;
      const [x, y] = runs[i]!;
      if (py === y) expect(x).toBeGreaterThan(px! + pn!);
    }
    // The three finder patterns: the top row starts with a run of 7 dark modules.
    expect(a.d.startsWith('M0 0h7v1h-7z')).toBe(true);
  });

  it('grows with the text, and throws past what any QR code holds', () => {
    const sizes = [20, 150, 600, 2000].map(
      (n) => qrPath('https://b.example/' + 'x'.repeat(n)).size,
    );
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(new Set(sizes).size).toBe(sizes.length);
    expect(sizes[0]).toBeGreaterThanOrEqual(21);
    expect(sizes.at(-1)).toBeLessThanOrEqual(177);
    expect(() => qrPath('https://b.example/' + 'x'.repeat(3000))).toThrow();
  });
});

describe('<HandoffPanel> while waiting', () => {
  it('a region named by its focused heading, the code named after the bank, the address as text', async () => {
    const { container } = renderPanel();
    const heading = screen.getByRole('heading', { level: 2, name: H.handoffHeading });
    expect(panel()).toHaveAccessibleName(H.handoffHeading);
    expect(panel()).toHaveAttribute('data-state', 'waiting');
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading).toHaveAttribute('tabindex', '-1');

    // The code: an image with a text alternative naming the bank, 4 px a module with the
    // quiet zone of 4 modules on a white plate, black modules, crisp edges.
    const img = qr()!;
    expect(img.tagName).toBe('svg');
    expect(img.getAttribute('aria-label')).toContain('Barclays');
    const { size, d } = qrPath(URL_);
    const box = size + 8;
    expect(img).toHaveAttribute('viewBox', `-4 -4 ${box} ${box}`);
    expect(img).toHaveAttribute('width', String(box * 4));
    expect(img).toHaveAttribute('height', String(box * 4));
    expect(img.querySelector('rect')).toHaveAttribute('fill', '#fff');
    expect(img.querySelector('path')).toHaveAttribute('d', d);
    expect(img.querySelector('path')).toHaveAttribute('fill', '#000');

    expect(screen.getByText(H.handoffText('Barclays'))).toBeInTheDocument();
    expect(screen.getByText(H.linkIntro)).toBeInTheDocument();
    // The address to type or copy, as text: no link to follow on this computer.
    const address = screen.getByText(URL_);
    expect(address.tagName).toBe('P');
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent(H.handoffWaiting);
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([H.continueHere]);

    // No developer words anywhere but in the address itself.
    const copy = container.cloneNode(true) as HTMLElement;
    copy.querySelector('.service-handoff-link')!.remove();
    expect(developerTextIn(copy)).toBeUndefined();
  });

  it('asks the status endpoint about exactly this payment', async () => {
    const { endpoint } = renderPanel();
    await waitFor(() => expect(endpoint.fetch).toHaveBeenCalled());
    const [asked] = endpoint.asked();
    expect(asked!.pathname).toBe('/api/payments/status');
    expect(Object.fromEntries(asked!.searchParams)).toEqual(IDS);
    expect(endpoint.fetch.mock.calls[0]![1]).toMatchObject({
      headers: { Accept: 'application/json' },
    });
  });

  it('“Continue on this computer” is a button that calls onContinueHere, with nothing', async () => {
    const { user, onContinueHere } = renderPanel();
    const button = screen.getByRole('button', { name: H.continueHere });
    expect(button).toHaveAttribute('type', 'button');
    await user.click(button);
    expect(onContinueHere.mock.calls).toEqual([[]]);
    // By keyboard too.
    button.focus();
    await user.keyboard('{Enter}');
    expect(onContinueHere).toHaveBeenCalledTimes(2);
  });

  it('injects its stylesheet once, with the nonce; none when plain, and no service classes', async () => {
    // Earlier tests' panels injected it already (once per document).
    document.head.querySelector('style[data-servicepay="handoff"]')?.remove();
    const first = renderPanel({ nonce: 'n0nce' });
    const second = renderPanel({ nonce: 'n0nce', id: 'sp2-' });
    const styles = document.head.querySelectorAll('style[data-servicepay="handoff"]');
    expect(styles).toHaveLength(1);
    expect(styles[0]).toHaveAttribute('nonce', 'n0nce');
    expect(styles[0]!.textContent).toContain('.service-qr');
    // The code comes with its encoder's chunk (a dynamic import).
    await waitFor(() =>
      expect(first.container.querySelector('.service-handoff .service-qr')).not.toBeNull(),
    );
    first.unmount();
    second.unmount();
    styles[0]!.remove();

    // Plain (disableVolumeStyling): no stylesheet and no service-* class; utility classes stay.
    const { container } = renderPanel({ plain: true, cx: cxFor(true, true) });
    expect(document.head.querySelector('style[data-servicepay="handoff"]')).toBeNull();
    expect(container.querySelector('[class*="service-"]')).toBeNull();
    expect(panel()).toHaveClass('flex', 'flex-col');
    // Crisp module edges without the stylesheet too.
    await waitFor(() => expect(qr()).toBeInTheDocument());
  });

  it('the ids are unique per prefix: two panels, each named by its own heading', () => {
    renderPanel({ id: 'a-' });
    renderPanel({ id: 'b-' });
    const regions = screen.getAllByRole('region');
    expect(regions.map((r) => r.getAttribute('aria-labelledby'))).toEqual([
      'a-handoff',
      'b-handoff',
    ]);
  });

  it('an address too long for any QR code: no code, the address and Continue still there', async () => {
    const url = 'https://b.example/' + 'x'.repeat(3000);
    renderPanel({ handoff: { ...HANDOFF, url } });
    // Once the encoder's chunk is here and has refused the address (a short one beside it
    // gets its code, so the chunk has answered both).
    renderPanel({ id: 'short-' });
    await screen.findByRole('img');
    expect(screen.getAllByRole('img')).toHaveLength(1);
    expect(screen.getByText(url)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: H.continueHere })).toHaveLength(2);
  });

  it('a bank page on this computer (the local sandbox): the code still, and why a phone cannot open it', async () => {
    for (const host of ['127.0.0.1:4010', 'localhost:4010', 'shop.localhost', '[::1]:4010']) {
      const url = `http://${host}/bank/${HANDOFF.paymentId}`;
      const { unmount } = renderPanel({ handoff: { ...HANDOFF, url } });
      expect(await screen.findByRole('img', { name: H.qrAlt('Barclays') })).toBeInTheDocument();
      expect(screen.getByText(H.loopbackNote)).toBeInTheDocument();
      expect(screen.queryByText(H.linkIntro)).toBeNull();
      expect(screen.getByText(url)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: H.continueHere })).toBeInTheDocument();
      unmount();
    }
    // An address a phone may reach: the usual words.
    renderPanel({ handoff: { ...HANDOFF, url: 'http://192.168.1.20:4010/bank/1' } });
    expect(screen.getByText(H.linkIntro)).toBeInTheDocument();
    expect(screen.queryByText(H.loopbackNote)).toBeNull();
  });

  it('takes the merchant’s words from both tables, and ignores what is not a word', async () => {
    renderPanel({
      messages: {
        handoffHeading: 'Scannez avec votre téléphone',
        qrAlt: (bank: string) => `Code QR pour ${bank}`,
        continueHere: 42,
        waiting: 'unused here',
      },
    });
    expect(screen.getByRole('heading', { name: 'Scannez avec votre téléphone' })).toBeVisible();
    expect(await screen.findByRole('img', { name: 'Code QR pour Barclays' })).toBeVisible();
    expect(screen.getByRole('button', { name: H.continueHere })).toBeVisible();
  });
});

describe('<HandoffPanel> follows the outcome', { timeout: 20_000 }, () => {
  it('COMPLETED: the code goes, “Payment received” takes focus, onResult once with the ids', async () => {
    const { endpoint, onResult } = renderPanel();
    await waitFor(() => expect(endpoint.fetch).toHaveBeenCalled());
    expect(onResult).not.toHaveBeenCalled();
    endpoint.set('COMPLETED');
    const heading = await screen.findByRole('heading', { name: M.received }, WAIT);
    await waitFor(() => expect(heading).toHaveFocus());
    expect(panel()).toHaveAttribute('data-state', 'received');
    expect(panel()).toHaveAccessibleName(M.received);
    expect(screen.getByRole('status')).toHaveTextContent(M.receivedText);
    expect(qr()).toBeNull();
    expect(screen.queryByText(URL_)).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'COMPLETED' }]]);
  });

  it('FAILED: “Payment not completed”, whose Try again calls onTryAgain', async () => {
    const { endpoint, onResult, onTryAgain, onContinueHere, user } = renderPanel();
    endpoint.set('FAILED');
    const heading = await screen.findByRole('heading', { name: M.notCompleted }, WAIT);
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByRole('status')).toHaveTextContent(M.notCompletedText);
    expect(qr()).toBeNull();
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'FAILED' }]]);
    // The way forward is Try again, alone: the bank's address is spent.
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([M.tryAgain]);
    await user.click(screen.getByRole('button', { name: M.tryAgain }));
    expect(onTryAgain).toHaveBeenCalledTimes(1);
    expect(onContinueHere).not.toHaveBeenCalled();
  });

  it('NEEDS_REVIEW: “We need to check this payment” with the shop’s contact, no code, nothing to press, onResult once', async () => {
    const { endpoint, onResult } = renderPanel({
      reviewContact: 'Questions? Call us on 020 7946 0000.',
    });
    await waitFor(() => expect(endpoint.fetch).toHaveBeenCalled());
    endpoint.set('NEEDS_REVIEW');
    const heading = await screen.findByRole('heading', { name: M.needsReview }, WAIT);
    await waitFor(() => expect(heading).toHaveFocus());
    expect(panel()).toHaveAttribute('data-state', 'needs-review');
    expect(screen.getByRole('status')).toHaveTextContent(M.needsReviewText);
    expect(screen.getByText('Questions? Call us on 020 7946 0000.')).toBeInTheDocument();
    // Neither received nor “no money has been taken”; no Continue or Try again to pay twice.
    expect(panel().textContent).not.toMatch(/received|no money/i);
    expect(qr()).toBeNull();
    expect(screen.queryByText(URL_)).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    // Its picture, beside the words: a shape of its own, hidden from screen readers.
    expect(panel().querySelector('svg.service-handoff-icon')).toHaveAttribute(
      'aria-hidden',
      'true',
    );
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'NEEDS_REVIEW' }]]);
  });

  it('a bank still confirming looks like waiting here: the code and Continue stay', async () => {
    const { endpoint } = renderPanel({ notHeardAfterMs: 150 });
    // Past notHeardAfterMs: the poll after 1 s has been asked (StrictMode asked twice at once).
    await waitFor(() => expect(endpoint.fetch.mock.calls.length).toBeGreaterThan(2), WAIT);
    expect(panel()).toHaveAttribute('data-state', 'waiting');
    expect(screen.getByRole('heading', { name: H.handoffHeading })).toBeInTheDocument();
    await waitFor(() => expect(qr()).toBeInTheDocument());
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([H.continueHere]);
    expect(panel().textContent).not.toContain(M.stillConfirming);
  });

  it('nothing heard in time: says so, keeps the code, and Check again waits again', async () => {
    const { endpoint, onResult, user } = renderPanel({
      notHeardAfterMs: 150,
      stopListeningAfterMs: 150,
    });
    const heading = await screen.findByRole('heading', { name: M.notHeard }, WAIT);
    await waitFor(() => expect(heading).toHaveFocus());
    expect(panel()).toHaveAttribute('data-state', 'not-heard');
    expect(screen.getByRole('status')).toHaveTextContent(M.notHeardText);
    // The shopper may still scan, or still continue here.
    expect(qr()).toBeInTheDocument();
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([
      M.checkAgain,
      H.continueHere,
    ]);

    const asked = endpoint.fetch.mock.calls.length;
    endpoint.set('COMPLETED');
    await user.click(screen.getByRole('button', { name: M.checkAgain }));
    // Back to waiting (the heading takes focus again), then the outcome.
    await screen.findByRole('heading', { name: M.received }, WAIT);
    expect(endpoint.fetch.mock.calls.length).toBeGreaterThan(asked);
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'COMPLETED' }]]);
  });

  it('a new handoff is another payment: followed afresh, the old one no longer asked about', async () => {
    const { endpoint, rerender } = renderPanel();
    await waitFor(() => expect(endpoint.fetch).toHaveBeenCalled());
    const next = { ...HANDOFF, paymentId: 'second-payment', url: URL_ + '&n=2' };
    rerender({ handoff: next });
    await waitFor(() =>
      expect(endpoint.asked().at(-1)!.searchParams.get('paymentId')).toBe('second-payment'),
    );
    expect(within(panel()).getByText(next.url)).toBeInTheDocument();
    const count = endpoint
      .asked()
      .filter((u) => u.searchParams.get('paymentId') === IDS.paymentId).length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(
      endpoint.asked().filter((u) => u.searchParams.get('paymentId') === IDS.paymentId),
    ).toHaveLength(count);
  });

  it('unmounted: asks nothing more', async () => {
    const { endpoint, unmount } = renderPanel();
    await waitFor(() => expect(endpoint.fetch).toHaveBeenCalled());
    unmount();
    const count = endpoint.fetch.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(endpoint.fetch).toHaveBeenCalledTimes(count);
  });
});
