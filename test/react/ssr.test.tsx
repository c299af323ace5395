// @vitest-environment node
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { ServicePay } from '../../src/react/index';

describe('server rendering', () => {
  it('renders with no window and makes no request', () => {
    expect(typeof window).toBe('undefined');
    const fetchInstitutions = vi.fn();
    const html = renderToString(
      createElement(ServicePay, {
        environment: 'SANDBOX',
        applicationId: '3f2a1d4e-5b6c-4d7e-8f90-a1b2c3d4e5f6',
        title: 'Pay <b>now</b>',
        payment: { amount: 12.5, paymentReference: 'ORDER-1' },
        transport: { fetchInstitutions, initiatePayment: vi.fn() },
      }),
    );
    expect(html).toContain('Pay &lt;b&gt;now&lt;/b&gt;');
    expect(html).toContain('data-state="idle"');
    expect(html).toMatch(/<button[^>]*>Pay £<\/button>/);
    expect(fetchInstitutions).not.toHaveBeenCalled();
  });
});
