// @vitest-environment node
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { ServicePay } from '../../src/react/index';
import { createFakeTransport } from '../helpers/fake-transport';
import { APP_ID } from '../helpers/merchant';

describe('server rendering', () => {
  it('renders with no window and makes no request', () => {
    expect(typeof window).toBe('undefined');
    const transport = createFakeTransport();
    const html = renderToString(
      createElement(ServicePay, {
        environment: 'SANDBOX',
        applicationId: APP_ID,
        title: 'Pay <b>now</b>',
        payment: { amount: 12.5, paymentReference: 'ORDER-1' },
        transport,
      }),
    );
    expect(html).toContain('Pay &lt;b&gt;now&lt;/b&gt;');
    expect(html).toContain('data-state="idle"');
    // The payment prop's amount is in the server HTML (React separates the two texts with a
    // comment), so the shopper never sees a bare "Pay £" before hydration.
    expect(html).toMatch(/<button[^>]*>Pay £(<!-- -->)?12\.50<\/button>/);
    expect(transport.calls).toEqual([]);
  });

  it('shows no amount for an invalid payment prop, and reports nothing while rendering', () => {
    const errorConsumer = vi.fn();
    const html = renderToString(
      createElement(ServicePay, {
        environment: 'SANDBOX',
        applicationId: APP_ID,
        payment: { amount: 12.5, paymentReference: 'R'.repeat(19) },
        errorConsumer,
        transport: createFakeTransport(),
      }),
    );
    // No amount, and no dead button: disabled until the payment is applied.
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Pay<\/button>/);
    expect(errorConsumer).not.toHaveBeenCalled();
  });
});
