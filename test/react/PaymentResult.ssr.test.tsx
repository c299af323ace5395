// @vitest-environment node
// <PaymentResult> rendered on a server (Next.js, Remix): no window, no request, and the
// waiting state, which the first render in the browser also shows (so hydration matches).
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_RESULT_MESSAGES, PaymentResult } from '../../src/react/index';

describe('<PaymentResult> on the server', () => {
  it('renders the waiting state with no window and asks nothing', () => {
    expect(typeof window).toBe('undefined');
    const fetch = vi.fn();
    const html = renderToString(
      createElement(PaymentResult, {
        statusUrl: '/api/payments/status',
        fetch,
        headingLevel: 1,
      }),
    );
    expect(html).toContain(`>${DEFAULT_RESULT_MESSAGES.waiting}</h1>`);
    expect(html).toContain('data-state="waiting"');
    expect(fetch).not.toHaveBeenCalled();
  });
});
