// ServiceResult (servicepay/vanilla and Service-result-<version>.min.js): the result page for
// plain pages, run as the package ships it (the Preact build, support.ts), against a real
// node:http status endpoint, in jsdom (so polling: jsdom has no EventSource).
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import cy from 'servicepay/locales/cy';
import { DEFAULT_RESULT_MESSAGES as M, PaymentResult } from '../../src/react/index';
import { describeMarkup } from '../helpers/markup';
import { inProcessStatusEndpoint } from '../helpers/status-endpoint';
import { startStatusServer } from '../helpers/status-server';
import type { StatusServer } from '../helpers/status-server';
import { defaultInitiatedPayment } from '../helpers/fake-transport';
import { APP_ID, fakeTransport } from '../react/support';
import { loadVanilla } from './support';
import type { VanillaModule } from './support';

const WAIT = { timeout: 15_000 };
const IDS = { paymentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', merchantPaymentId: 'order-1042' };

let vanilla: VanillaModule;
let server: StatusServer;
beforeAll(async () => {
  vanilla = await loadVanilla();
});
beforeEach(async () => {
  server = await startStatusServer();
  sessionStorage.clear();
  history.replaceState(null, '', '/result');
});
afterEach(async () => {
  document.body.replaceChildren();
  await server.close();
});

function element(id = 'payment-result'): HTMLElement {
  const div = document.createElement('div');
  div.id = id;
  document.body.append(div);
  return div;
}

describe('ServiceResult', { timeout: 30_000 }, () => {
  it('follows the payment of the return address to its outcome, with onResult once', async () => {
    history.replaceState(
      null,
      '',
      `/result?paymentId=${IDS.paymentId}&merchantPaymentId=order-1042`,
    );
    element();
    const onResult = vi.fn();
    const result = new vanilla.ServiceResult({ statusUrl: server.statusUrl, onResult });
    // Nothing happens before it is injected.
    expect(result.state).toBe('waiting');
    expect(result.payment).toBeNull();
    result.injectComponent('payment-result');
    expect(await screen.findByRole('heading', { name: M.waiting })).toBeInTheDocument();
    await waitFor(() => expect(result.payment).toEqual(IDS));

    server.record(IDS, 'COMPLETED');
    const heading = await screen.findByRole('heading', { name: M.received }, WAIT);
    await waitFor(() => expect(heading).toHaveFocus());
    expect(result.state).toBe('received');
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'COMPLETED' }]]);
  });

  it('finds what a window.Service payment saved, and Check again resumes after the bound', async () => {
    const transport = fakeTransport();
    const service = new vanilla.Service({
      environment: 'SANDBOX',
      applicationId: APP_ID,
      transport,
      openUrl: vi.fn(),
    });
    service.createPayment({ amount: 12.5, paymentReference: 'ORDER-1042' });
    element('service-component');
    service.injectComponent('service-component');
    const paidWith = service.merchantPaymentId;
    await service.payWithInstitution('monzo');
    service.destroy();
    const paid = { paymentId: defaultInitiatedPayment(1).paymentId, merchantPaymentId: paidWith };

    element();
    const result = new vanilla.ServiceResult({
      statusUrl: server.statusUrl,
      notHeardAfterMs: 300,
      stopListeningAfterMs: 300,
    });
    result.injectComponent('payment-result');
    await screen.findByRole('heading', { name: M.notHeard }, WAIT);
    expect(result.payment).toEqual(paid);
    server.record(paid, 'FAILED');
    await userEvent.setup().click(screen.getByRole('button', { name: M.checkAgain }));
    await screen.findByRole('heading', { name: M.notCompleted }, WAIT);
    expect(result.state).toBe('not-completed');
  });

  it('a payment that needs checking: its heading, the shop’s contact, state needs-review, onResult once', async () => {
    history.replaceState(
      null,
      '',
      `/result?paymentId=${IDS.paymentId}&merchantPaymentId=order-1042`,
    );
    server.record(IDS, 'NEEDS_REVIEW');
    const host = element();
    const onResult = vi.fn();
    const result = new vanilla.ServiceResult({
      statusUrl: server.statusUrl,
      onResult,
      reviewContact: 'Email orders@shop.example and quote your order number.',
    });
    result.injectComponent('payment-result');
    const heading = await screen.findByRole('heading', { name: M.needsReview }, WAIT);
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByRole('status')).toHaveTextContent(M.needsReviewText);
    expect(host).toHaveTextContent('Email orders@shop.example and quote your order number.');
    expect(host).not.toHaveTextContent(M.received);
    expect(result.state).toBe('needs-review');
    expect(onResult.mock.calls).toEqual([[{ ...IDS, status: 'NEEDS_REVIEW' }]]);
  });

  it.each([
    ['en', M.received, ['Amount', 'Paid to', 'Reference']],
    ['cy', cy.result.received, ['Swm', 'Talwyd i', 'Cyfeirnod']],
  ] as const)(
    'what was paid, as the endpoint’s expose adds it, in %s and in the markup of React’s',
    async (locale, received, terms) => {
      const endpoint = inProcessStatusEndpoint({
        expose: () => ({
          paid: { amount: '12.50', payee: 'Example Coffee Co.', reference: 'R-1' },
        }),
      });
      try {
        endpoint.record(IDS, 'COMPLETED');
        const options = { statusUrl: endpoint.statusUrl, payment: IDS, fetch: endpoint.fetch };
        const host = element();
        new vanilla.ServiceResult({ ...options, locale }).injectComponent('payment-result');
        await within(host).findByRole('heading', { name: received }, WAIT);
        const list = host.querySelector('dl')!;
        expect(
          within(list)
            .getAllByRole('term')
            .map((term) => [term.textContent, term.nextElementSibling!.textContent]),
        ).toEqual([
          [terms[0], '£12.50'],
          [terms[1], 'Example Coffee Co.'],
          [terms[2], 'R-1'],
        ]);
        const { container } = render(
          <PaymentResult
            {...options}
            eventSource={false}
            locale={locale === 'cy' ? cy : undefined}
          />,
        );
        await within(container).findByRole('heading', { name: received }, WAIT);
        expect(describeMarkup(host.firstElementChild!)).toBe(
          describeMarkup(container.firstElementChild!),
        );
      } finally {
        await endpoint.close();
      }
    },
  );

  it('a bank still confirming: its words and the shop’s sentence as text, then not heard at the horizon', async () => {
    // On the fake clock, against the real endpoint in this process: half an hour in a moment.
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    const endpoint = inProcessStatusEndpoint();
    try {
      const host = element();
      const notice = 'We’ll email you at <j•••@example.com> as soon as your bank confirms.';
      const result = new vanilla.ServiceResult({
        statusUrl: endpoint.statusUrl,
        payment: IDS,
        fetch: endpoint.fetch,
        pendingNotice: notice,
        reviewContact: 'Call us on 020 7946 0000.',
      });
      result.injectComponent('payment-result');
      // Preact runs effects (the controller's mount) after the next frame, or 35 ms.
      await vi.advanceTimersByTimeAsync(100);
      expect(endpoint.requests).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(result.state).toBe('still-confirming');
      expect(screen.getByRole('heading', { name: M.stillConfirming })).toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent(M.stillConfirmingText);
      expect(screen.getByText(notice)).toBeInTheDocument();
      expect(host).not.toHaveTextContent('Call us');
      expect(screen.queryByRole('button')).toBeNull();
      await vi.advanceTimersByTimeAsync(30 * 60_000);
      expect(result.state).toBe('not-heard');
      expect(screen.getByRole('heading', { name: M.notHeard })).toBeInTheDocument();
      expect(host).toHaveTextContent(notice);
      expect(host).toHaveTextContent('Call us on 020 7946 0000.');
      result.destroy();
    } finally {
      await endpoint.close();
      vi.useRealTimers();
    }
  });

  it('renders the markup of React’s <PaymentResult>', async () => {
    const host = element();
    new vanilla.ServiceResult({ statusUrl: server.statusUrl }).injectComponent('payment-result');
    await screen.findByRole('heading', { name: M.notFound });
    const { container } = render(<PaymentResult statusUrl={server.statusUrl} />);
    await waitFor(() =>
      expect(container.querySelector('[data-state]')).toHaveAttribute('data-state', 'not-found'),
    );
    expect(describeMarkup(host.firstElementChild!)).toBe(
      describeMarkup(container.firstElementChild!),
    );
  });

  it('throws for a missing statusUrl or element, saying what to give', () => {
    expect(() => new vanilla.ServiceResult({} as never)).toThrow(
      /^servicepay: the payment result needs statusUrl/,
    );
    const result = new vanilla.ServiceResult({ statusUrl: '/api/payments/status' });
    expect(() => result.injectComponent('nowhere')).toThrow(vanilla.ServiceInjectionError);
  });

  it('destroy stops asking', async () => {
    history.replaceState(
      null,
      '',
      `/result?paymentId=${IDS.paymentId}&merchantPaymentId=order-1042`,
    );
    element();
    const result = new vanilla.ServiceResult({ statusUrl: server.statusUrl });
    result.injectComponent('payment-result');
    await waitFor(() => expect(server.requests.length).toBeGreaterThan(0));
    result.destroy();
    expect(document.getElementById('payment-result')).toBeEmptyDOMElement();
    const asked = server.requests.length;
    // Polling would have asked again after 1 s.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(server.requests).toHaveLength(asked);
  });
});
