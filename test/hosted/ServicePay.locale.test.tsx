// servicepay/hosted in the shopper's language (issue 49): `locale` translates the wrapper's own
// words, the placeholder while the service's script loads and the sentence when it cannot, and
// marks only them with `lang`; the service's component, in its own element, is not marked.
// jsdom runs no script: the load stays pending until the test fails the <script> element.
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServicePay } from 'servicepay/hosted';
import cy from 'servicepay/locales/cy';
import { englishWordsIn } from '../helpers/shopper-text';
import { APP_ID } from '../helpers/merchant';

afterEach(() => {
  document.head.querySelectorAll('script').forEach((script) => script.remove());
});

let scripts = 0;
function mount(more: { locale?: typeof cy; title?: string } = {}) {
  // An address of its own per test: a failed load is forgotten, a pending one is shared.
  const scriptSrc = `https://pay.example/${++scripts}/Service-0.9.3.min.js`;
  const errorConsumer = vi.fn();
  const view = render(
    <ServicePay
      scriptSrc={scriptSrc}
      environment="LIVE"
      applicationId={APP_ID}
      payment={{ amount: 1234.5, paymentReference: 'ORDER-1042' }}
      errorConsumer={errorConsumer}
      {...more}
    />,
  );
  /** The service's script does not load (a network failure). */
  const fail = () =>
    act(async () => {
      document.head.querySelector(`script[src="${scriptSrc}"]`)!.dispatchEvent(new Event('error'));
      // The loader settles in the task after the error (a CSP report would come first).
      await new Promise((resolve) => setTimeout(resolve));
    });
  return { ...view, fail, errorConsumer };
}

describe('servicepay/hosted with locale={cy}', () => {
  it('the placeholder while the script loads: the Pay step’s place in Welsh, marked', () => {
    const { container } = mount({ locale: cy });
    const placeholder = container.querySelector('.servicepay-placeholder')!;
    expect(placeholder).toHaveAttribute('lang', 'cy');
    expect(placeholder).toHaveTextContent(cy.pay.title);
    expect(placeholder).toHaveTextContent(cy.pay.label);
    expect(screen.getByRole('button', { name: 'Talu £1,234.50' })).toBeDisabled();
    expect(englishWordsIn(container)).toEqual([]);
  });

  it('the load failure in Welsh, marked; the service’s element is not', async () => {
    const { container, fail, errorConsumer } = mount({ locale: cy });
    await fail();
    expect(await screen.findByRole('alert')).toHaveTextContent(cy.hosted.loadFailed);
    expect(screen.getByRole('button', { name: cy.hosted.retry })).toBeEnabled();
    expect(screen.getByRole('alert').parentElement).toHaveAttribute('lang', 'cy');
    expect(englishWordsIn(container)).toEqual([]);
    // Only the wrapper's own words are marked: not its root, nor the service's element.
    expect(container.querySelectorAll('[lang]')).toHaveLength(1);
    // The merchant hears why, in English, as always.
    expect(errorConsumer.mock.calls[0]![0].error).toMatch(/^servicepay: /);
  });

  it('the props that name the service’s words win over the catalogue', () => {
    mount({ locale: cy, title: 'Talwch ar-lein' });
    expect(screen.getByText('Talwch ar-lein')).toBeInTheDocument();
  });

  it('without locale: English, marked en-GB', async () => {
    const { container, fail } = mount();
    expect(screen.getByRole('button', { name: 'Pay £1,234.50' })).toBeDisabled();
    expect(container.querySelector('.servicepay-placeholder')).toHaveAttribute('lang', 'en-GB');
    await fail();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'We couldn’t load the payment options.',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
  });
});
