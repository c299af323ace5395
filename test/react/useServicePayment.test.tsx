import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useServicePayment } from '../../src/react/index';
import type { UseServicePaymentOptions } from '../../src/react/index';
import { DEFAULT_MESSAGES } from '../../src/core/index';
import { createEventLog } from '../helpers/event-log';
import { defaultInitiatedPayment } from '../helpers/fake-transport';
import { APP_ID, fakeTransport, reply } from './support';
import { OPENED_IDS } from '../helpers/opened-ids';

/** A merchant's own UI on the headless hook. */
function CustomCheckout(options: UseServicePaymentOptions) {
  const pay = useServicePayment(options);
  return (
    <section aria-label="Custom checkout" data-status={pay.status}>
      <p>Next id: {pay.merchantPaymentId}</p>
      <button type="button" onClick={pay.openInstitutionSelection}>
        Choose bank
      </button>
      {pay.listState === 'open' && (
        <ul>
          {pay.institutions.map((bank) => (
            <li key={bank.id}>
              <button type="button" onClick={() => void pay.payWithInstitution(bank.id)}>
                Pay with {bank.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" onClick={pay.closeInstitutionSelection}>
        Close
      </button>
      <p role="status">{pay.status}</p>
    </section>
  );
}

describe('useServicePayment', () => {
  it('drives a custom UI through a whole payment', async () => {
    const t = fakeTransport();
    const { entries, eventConsumer, errorConsumer } = createEventLog();
    const openUrl = vi.fn();
    const onPaymentInitiated = vi.fn();
    const user = userEvent.setup();
    render(
      <CustomCheckout
        environment="SANDBOX"
        applicationId={APP_ID}
        transport={t}
        openUrl={openUrl}
        eventConsumer={eventConsumer}
        errorConsumer={errorConsumer}
        onPaymentInitiated={onPaymentInitiated}
        payment={{ amount: 5, paymentReference: 'HOOK-1', merchantPaymentId: 'order-1' }}
      />,
    );
    await waitFor(() => expect(entries).toEqual(['event:mounted', 'event:institutions_fetched']));
    expect(screen.getByText('Next id: order-1')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Choose bank' }));
    expect(screen.getByRole('status')).toHaveTextContent('selecting');
    await user.click(screen.getByRole('button', { name: 'Pay with Monzo' }));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('awaiting-authorisation'),
    );
    expect(t.paymentRequests[0]).toMatchObject({
      merchantPaymentId: 'order-1',
      institutionId: 'monzo',
    });
    expect(onPaymentInitiated).toHaveBeenCalledWith({
      merchantPaymentId: 'order-1',
      institutionId: 'monzo',
    });
    expect(screen.queryByText('Next id: order-1')).not.toBeInTheDocument();
    expect(screen.getByText(/^Next id: [0-9a-f-]{36}$/)).toBeInTheDocument();
    expect(openUrl).toHaveBeenCalledWith(defaultInitiatedPayment(1).authorisationUrl, OPENED_IDS);
    expect(entries.slice(2)).toEqual([
      'event:bank_selection_opened',
      'event:payment_initiated',
      'event:institution_selected',
      'event:awaiting_authorisation',
    ]);
  });

  it('starts a new session when the application id changes', async () => {
    const t = fakeTransport();
    const other = '0b9d6a4c-1e2f-4a3b-8c7d-6e5f4a3b2c1d';
    const view = render(
      <CustomCheckout environment="SANDBOX" applicationId={APP_ID} transport={t} />,
    );
    await waitFor(() => expect(t.fetchCalls).toHaveLength(1));
    view.rerender(<CustomCheckout environment="SANDBOX" applicationId={other} transport={t} />);
    await waitFor(() => expect(t.fetchCalls).toHaveLength(2));
    expect(t.fetchCalls.map((call) => call.request.applicationId)).toEqual([APP_ID, other]);
  });

  it('hands out the Pay step as data: a merchant button built on payStep follows the component', async () => {
    const t = fakeTransport();
    t.replyOnce('fetchInstitutions', reply.fail('Service unavailable'));
    const user = userEvent.setup();
    function OwnButton(options: UseServicePaymentOptions) {
      const { payStep } = useServicePayment(options);
      return (
        <>
          <button
            type="button"
            disabled={payStep.disabled}
            aria-expanded={payStep.expanded}
            aria-disabled={payStep.busy || undefined}
            onClick={payStep.action}
          >
            {payStep.label}
          </button>
          {payStep.hint && <p>{payStep.hint}</p>}
          <p role="alert">{payStep.error}</p>
        </>
      );
    }
    const view = render(<OwnButton environment="SANDBOX" applicationId={APP_ID} transport={t} />);
    // The banks failed to load: the button is the retry, before any payment.
    const button = await screen.findByRole('button', { name: DEFAULT_MESSAGES.retry });
    expect(screen.getByRole('alert')).toHaveTextContent(DEFAULT_MESSAGES.loadFailed);
    await user.click(button);
    await waitFor(() => expect(t.fetchCalls).toHaveLength(2));
    // Loaded, no payment yet: "Pay", disabled, saying why.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pay' })).toBeDisabled());
    expect(screen.getByText(DEFAULT_MESSAGES.paymentNotReady)).toBeInTheDocument();
    view.rerender(
      <OwnButton
        environment="SANDBOX"
        applicationId={APP_ID}
        transport={t}
        payment={{ amount: 7.5, paymentReference: 'OWN-1' }}
      />,
    );
    const pay = await screen.findByRole('button', { name: 'Pay £7.50' });
    expect(pay).toBeEnabled();
    expect(pay).toHaveAttribute('aria-expanded', 'false');
    await user.click(pay);
    expect(pay).toHaveAttribute('aria-expanded', 'true');
    await user.click(pay);
    expect(pay).toHaveAttribute('aria-expanded', 'false');
  });
});
