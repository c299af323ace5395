// Server rendering in the shopper's language (issue 49): the server's HTML is Welsh, marked
// `lang="cy"`, and hydrating it in the browser with the same catalogue raises no mismatch (the
// catalogue is a prop, never read from the page, so server and browser cannot disagree).
import { createElement } from 'react';
import type { ReactElement } from 'react';
import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import cy from 'servicepay/locales/cy';
import { PaymentResult, ServicePay } from '../../src/react/index';
import { createFakeTransport } from '../helpers/fake-transport';
import { APP_ID } from '../helpers/merchant';

afterEach(() => vi.restoreAllMocks());

/** The server's HTML in a page, hydrated there: what React reported while it did. */
async function hydrate(element: () => ReactElement) {
  const html = renderToString(element());
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const recoverable = vi.fn();
  const root = await act(async () =>
    hydrateRoot(container, element(), { onRecoverableError: recoverable }),
  );
  await act(async () => undefined);
  const reported = [...errors.mock.calls, ...recoverable.mock.calls].map(String);
  await act(async () => root.unmount());
  container.remove();
  return { html, reported };
}

describe('server rendering with locale={cy}, then hydration', () => {
  it('<ServicePay>: Welsh HTML, marked, and no mismatch', async () => {
    const transport = createFakeTransport();
    const { html, reported } = await hydrate(() =>
      createElement(ServicePay, {
        environment: 'SANDBOX',
        applicationId: APP_ID,
        locale: cy,
        payment: { amount: 1234.5, paymentReference: 'ORDER-1' },
        transport,
      }),
    );
    expect(html).toContain('lang="cy"');
    expect(html).toContain(cy.pay.title);
    expect(html).toMatch(/<button[^>]*>Talu £(<!-- -->)?1,234\.50<\/button>/);
    expect(reported).toEqual([]);
  });

  it('<PaymentResult>: Welsh HTML, marked, and no mismatch', async () => {
    const fetch = vi.fn(() => new Promise<Response>(() => undefined));
    const { html, reported } = await hydrate(() =>
      createElement(PaymentResult, {
        statusUrl: '/api/payments/status',
        payment: { paymentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', merchantPaymentId: 'o-1' },
        locale: cy,
        fetch: fetch as unknown as typeof globalThis.fetch,
        eventSource: false,
      }),
    );
    expect(html).toContain('lang="cy"');
    expect(html).toContain(`>${cy.result.waiting}</h2>`);
    expect(reported).toEqual([]);
  });
});
