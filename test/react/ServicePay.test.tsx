import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { axe } from '../helpers/axe';
import { describe, expect, it, vi } from 'vitest';
import { ServicePay, ServiceEvent } from '../../src/react/index';
import type { ServicePayProps } from '../../src/react/index';
import {
  APP_ID,
  BANKS,
  SEARCHABLE_BANKS,
  expectSearchOnEachKey,
  fakeTransport,
  reply,
} from './support';
import { renderServicePay } from './render';
import { createEventLog } from '../helpers/event-log';
import { createFakeTransport, defaultInitiatedPayment } from '../helpers/fake-transport';
import { WHOLE_PAYMENT } from '../helpers/events';
import { developerTextIn } from '../helpers/shopper-text';
import { DEFAULT_MESSAGES } from '../../src/core/index';
import { OPENED_IDS } from '../helpers/opened-ids';

function setup(props: Partial<ServicePayProps> = {}, transport = fakeTransport()) {
  return { ...renderServicePay({ transport, ...props }), transport };
}

const FIRST_PAYMENT = defaultInitiatedPayment(1);

const payButton = () => screen.getByRole('button', { name: /^Pay\b/ });

describe('<ServicePay>', () => {
  it('shows the title, label and the Pay button with the amount', async () => {
    const { log } = setup();
    expect(screen.getByText('Pay with your banking app')).toBeInTheDocument();
    expect(screen.getByText('Pay securely with your banking app')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Pay £12.50' })).toBeEnabled();
    expect(screen.getByRole('group', { name: 'Pay with your banking app' })).toHaveAttribute(
      'data-state',
      'idle',
    );
    await waitFor(() =>
      expect(log.entries).toEqual(['event:mounted', 'event:institutions_fetched']),
    );
  });

  it('takes a whole payment by clicks, with the events in order', async () => {
    const { user, log, openUrl, transport } = setup();
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const barclays = await screen.findByRole('button', { name: 'Barclays' });
    expect(barclays).toHaveFocus();
    expect(payButton()).toHaveAttribute('aria-expanded', 'true');
    // The logo is decorative: the button's name is the bank's name only.
    expect(barclays.querySelector('img')).toHaveAttribute('src', 'https://icons.test/barclays.svg');
    expect(barclays.querySelector('img')).toHaveAttribute('alt', '');
    await user.click(barclays);
    await waitFor(() =>
      expect(openUrl).toHaveBeenCalledWith(FIRST_PAYMENT.authorisationUrl, OPENED_IDS),
    );
    expect(log.entries).toEqual(WHOLE_PAYMENT.map((event) => `event:${event}`));
    expect(transport.paymentRequests).toHaveLength(1);
    expect(transport.paymentRequests[0]).toMatchObject({
      environment: 'SANDBOX',
      applicationId: APP_ID,
      institutionId: 'barclays',
      paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
      agentType: 'WEB_BROWSER',
    });
    expect(screen.getByRole('status')).toHaveTextContent(DEFAULT_MESSAGES.awaiting);
    expect(screen.queryByRole('list', { name: 'Banks' })).not.toBeInTheDocument();
    // Ready for another payment.
    expect(payButton()).toBeEnabled();
  });

  it('sends one payment for a double click', async () => {
    const t = fakeTransport();
    t.replyOnce('initiatePayment', reply.defer());
    const { user, openUrl } = setup({}, t);
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const monzo = await screen.findByRole('button', { name: 'Monzo' });
    await user.dblClick(monzo);
    await user.click(monzo);
    expect(screen.getByRole('status')).toHaveTextContent('Opening Monzo…');
    expect(monzo).toHaveAttribute('data-state', 'initiating');
    // The Pay button shows the progress too, and does nothing meanwhile.
    expect(screen.getByRole('button', { name: 'Opening Monzo…' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Barclays' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await act(async () =>
      t.paymentCalls[0]!.resolve({ paymentId: 'p', authorisationUrl: 'https://bank.test/a' }),
    );
    expect(t.paymentCalls).toHaveLength(1);
    expect(openUrl).toHaveBeenCalledTimes(1);
  });

  it('fetches the banks once and emits mounted once under StrictMode', async () => {
    const t = fakeTransport();
    const { entries, eventConsumer, errorConsumer } = createEventLog();
    render(
      <StrictMode>
        <ServicePay
          environment="SANDBOX"
          applicationId={APP_ID}
          transport={t}
          eventConsumer={eventConsumer}
          errorConsumer={errorConsumer}
          payment={{ amount: 1, paymentReference: 'R' }}
        />
      </StrictMode>,
    );
    await screen.findByRole('button', { name: 'Pay £1.00' });
    await waitFor(() => expect(entries).toEqual(['event:mounted', 'event:institutions_fetched']));
    expect(t.fetchCalls).toHaveLength(1);
  });

  it('opens the list when the banks arrive if asked before', async () => {
    const t = fakeTransport();
    t.replyOnce('fetchInstitutions', reply.defer());
    const { ref, log } = setup({}, t);
    await screen.findByRole('button', { name: 'Pay £12.50' });
    act(() => ref.current!.openInstitutionSelection());
    expect(screen.getByRole('group')).toHaveAttribute('data-state', 'loading');
    expect(screen.getByRole('status')).toHaveTextContent('Loading banks…');
    expect(log.entries).toEqual(['event:mounted']);
    await act(async () => t.fetchCalls[0]!.resolve(BANKS));
    expect(await screen.findByRole('button', { name: 'Barclays' })).toHaveFocus();
    expect(log.entries).toEqual([
      'event:mounted',
      'event:institutions_fetched',
      'event:bank_selection_opened',
    ]);
  });

  it('shows a failed fetch in plain words with Try again as the primary action, and recovers', async () => {
    const t = fakeTransport();
    t.replyOnce(
      'fetchInstitutions',
      reply.fail('Network error: could not reach http://127.0.0.1:4010'),
    );
    const { user, log, container } = setup({}, t);
    expect(await screen.findByRole('alert')).toHaveTextContent(DEFAULT_MESSAGES.loadFailed);
    expect(developerTextIn(container)).toBeUndefined();
    expect(log.entries).toContain(
      'error:fetchInstitutions:Network error: could not reach http://127.0.0.1:4010',
    );
    // The one primary button is the retry; pressing it opens the step once the banks arrive.
    expect(screen.queryByRole('button', { name: /^Pay\b/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByRole('alert')).toBeEmptyDOMElement());
    expect(await screen.findByRole('button', { name: 'Barclays' })).toHaveFocus();
    expect(t.fetchCalls).toHaveLength(2);
  });

  it('disables Pay with a plain reason for an invalid payment, reports it, and sends nothing', async () => {
    const { user, log, transport, container } = setup({
      payment: { amount: 12.5, paymentReference: 'ABCDEFGHIJKLMNOPQRS' },
    });
    const message =
      'Input validation error: field=[paymentRequest.reference], value=[ABCDEFGHIJKLMNOPQRS], error=[must not be longer than 18 characters]';
    await waitFor(() => expect(log.entries).toContain(`error:payWithBankInstitution:${message}`));
    expect(payButton()).toHaveAccessibleName('Pay');
    expect(payButton()).toBeDisabled();
    expect(payButton()).toHaveAccessibleDescription(DEFAULT_MESSAGES.paymentInvalid);
    expect(developerTextIn(container)).toBeUndefined();
    await user.click(payButton());
    expect(screen.queryByRole('list', { name: 'Banks' })).not.toBeInTheDocument();
    expect(transport.paymentRequests).toHaveLength(0);
  });

  it('closes the list on Escape and gives focus back to Pay', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    expect(await screen.findByRole('button', { name: 'Barclays' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'HSBC UK' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('list', { name: 'Banks' })).not.toBeInTheDocument();
    expect(payButton()).toHaveFocus();
    expect(payButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('is operable by keyboard alone', async () => {
    const { user, openUrl } = setup();
    await screen.findByRole('button', { name: 'Pay £12.50' });
    await user.tab();
    expect(payButton()).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('button', { name: 'Barclays' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'HSBC UK' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(openUrl).toHaveBeenCalledTimes(1));
  });

  it('toggles the Pay button from the handle and the prop', async () => {
    const { ref, log, rerender } = setup({ disablePayButton: true });
    const button = await screen.findByRole('button', { name: 'Pay £12.50' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('Payment is not available yet.');
    act(() => ref.current!.toggleButton(true));
    expect(button).toBeEnabled();
    act(() => ref.current!.toggleButton(false));
    expect(button).toBeDisabled();
    rerender({ disablePayButton: false });
    await waitFor(() => expect(button).toBeEnabled());
    expect(log.events().filter((e) => e.startsWith('pay_button'))).toEqual([
      ServiceEvent.PAY_BUTTON_ENABLED,
      ServiceEvent.PAY_BUTTON_DISABLED,
      ServiceEvent.PAY_BUTTON_ENABLED,
    ]);
  });

  it('pays from the handle, with the app-link fragment and agent type', async () => {
    const onPaymentInitiated = vi.fn();
    const { ref, openUrl, transport } = setup({
      isWebView: true,
      agentType: 'MOBILE_APPLICATION',
      onPaymentInitiated,
    });
    await screen.findByRole('button', { name: 'Pay £12.50' });
    await act(() => ref.current!.payWithInstitution('hsbc'));
    expect(openUrl).toHaveBeenCalledWith(
      `${FIRST_PAYMENT.authorisationUrl}#OPEN_AS_APPLINK`,
      OPENED_IDS,
    );
    const payments = transport.paymentRequests;
    expect(payments[0]!.agentType).toBe('MOBILE_APPLICATION');
    expect(onPaymentInitiated).toHaveBeenCalledWith({
      merchantPaymentId: payments[0]!.merchantPaymentId,
      institutionId: 'hsbc',
    });
    act(() => {
      ref.current!.createPayment({ amount: 3, paymentReference: 'R2', agentType: 'WEB_BROWSER' });
    });
    await act(() => ref.current!.payWithInstitution('hsbc'));
    const [first, second] = transport.paymentRequests;
    expect(second!.agentType).toBe('WEB_BROWSER');
    expect(second!.merchantPaymentId).not.toBe(first!.merchantPaymentId);
  });

  it('neither refetches nor re-applies the payment on re-renders with new objects', async () => {
    const t = fakeTransport();
    const { rerender, ref } = setup({}, t);
    await screen.findByRole('button', { name: 'Pay £12.50' });
    await act(() => ref.current!.payWithInstitution('monzo'));
    for (let i = 0; i < 3; i++) {
      rerender({
        eventConsumer: () => undefined,
        payment: { amount: 12.5, paymentReference: 'ORDER-1042' },
      });
    }
    await act(() => ref.current!.payWithInstitution('monzo'));
    expect(t.fetchCalls).toHaveLength(1);
    expect(t.paymentRequests).toHaveLength(2);
    rerender({ payment: { amount: 20, paymentReference: 'ORDER-1043' } });
    expect(await screen.findByRole('button', { name: 'Pay £20.00' })).toBeInTheDocument();
  });

  it('never redirects after unmount, and aborts the request', async () => {
    // Answered by the test, whatever the signal says: a late answer after the abort.
    const t = createFakeTransport({ institutions: BANKS, respectAbort: false });
    t.replyOnce('initiatePayment', reply.defer());
    const { ref, openUrl, unmount } = setup({}, t);
    await screen.findByRole('button', { name: 'Pay £12.50' });
    act(() => {
      void ref.current!.payWithInstitution('monzo');
    });
    await waitFor(() => expect(t.paymentCalls).toHaveLength(1));
    unmount();
    await Promise.resolve();
    expect(t.paymentCalls[0]!.signal?.aborted).toBe(true);
    t.paymentCalls[0]!.resolve({ paymentId: 'p', authorisationUrl: 'https://bank.test/late' });
    await new Promise((r) => setTimeout(r, 0));
    expect(openUrl).not.toHaveBeenCalled();
  });

  it('renders markup in texts and bank names as text', async () => {
    const t = fakeTransport([{ id: 'x', name: '<img src=x onerror=alert(1)>' }]);
    const { user, container } = setup(
      { title: '<b>Title</b>', label: '<i>l</i>', payLabel: '<s>Pay</s> £' },
      t,
    );
    expect(screen.getByText('<b>Title</b>')).toBeInTheDocument();
    expect(screen.getByText('<i>l</i>')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: '<s>Pay</s> £12.50' }));
    expect(
      await screen.findByRole('button', { name: '<img src=x onerror=alert(1)>' }),
    ).toBeVisible();
    expect(container.querySelector('b, i, s, img')).toBeNull();
  });

  it('filters a long list by a case- and accent-insensitive search', async () => {
    const many = [
      ...Array.from({ length: 10 }, (_, i) => ({ id: `b${i}`, name: `Bank ${i}` })),
      { id: 'sg', name: 'Société Générale' },
    ];
    const { user } = setup({}, fakeTransport(many));
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const search = await screen.findByRole('searchbox', { name: 'Search for your bank' });
    expect(search).toHaveFocus();
    await user.type(search, 'SOCIETE');
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Société Générale' })).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'nowhere');
    expect(screen.getByText(DEFAULT_MESSAGES.noMatch('nowhere'))).toBeInTheDocument();
  });

  it('filters the banks on every keystroke, not on blur or Enter', async () => {
    const { user } = setup({}, fakeTransport(SEARCHABLE_BANKS));
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    await expectSearchOnEachKey(user);
  });

  it('shows initials for a bank without an icon', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const monzo = await screen.findByRole('button', { name: 'Monzo' });
    expect(monzo.querySelector('img')).toBeNull();
    // Drawn by CSS from data-initials: the tile's text is the bank's name alone (WCAG 2.5.3).
    expect(monzo.querySelector('[data-initials]')).toHaveAttribute('data-initials', 'M');
    expect(monzo).toHaveTextContent(/^Monzo$/);
  });
});

describe('styling', () => {
  it('injects the stylesheets once, with the nonce', async () => {
    document.head.innerHTML = '';
    setup({ nonce: 'abc123' });
    render(<ServicePay environment="SANDBOX" applicationId={APP_ID} transport={fakeTransport()} />);
    await screen.findAllByRole('group');
    const service = document.head.querySelectorAll('style[data-servicepay="service"]');
    expect(service).toHaveLength(1);
    expect(service[0]).toHaveAttribute('nonce', 'abc123');
    expect(service[0]!.textContent).toContain('.service-root');
    expect(document.head.querySelectorAll('style[data-servicepay="tailwind"]')).toHaveLength(1);
    expect(screen.getAllByRole('group')[0]).toHaveClass('service-root');
    expect(document.querySelector('[style]')).toBeNull();
  });

  it('drops service classes with disableVolumeStyling, and keeps data-state', async () => {
    document.head.innerHTML = '';
    const { container } = setup({ disableVolumeStyling: true, disableTailwindStyling: true });
    await screen.findByRole('button', { name: 'Pay £12.50' });
    expect(container.innerHTML).not.toMatch(/service-/);
    expect(screen.getByRole('group')).toHaveAttribute('data-state', 'idle');
    expect(document.head.querySelector('style[data-servicepay]')).toBeNull();
  });
});

describe('accessibility', () => {
  it('has no axe violations when idle, open, and failed', async () => {
    const { user, container } = setup();
    await screen.findByRole('button', { name: 'Pay £12.50' });
    expect(await axe(container)).toHaveNoViolations();
    await user.click(payButton());
    await screen.findByRole('button', { name: 'Barclays' });
    expect(await axe(container)).toHaveNoViolations();

    const t = fakeTransport();
    t.replyTo('fetchInstitutions', reply.fail('Down'));
    const failed = render(
      <ServicePay environment="SANDBOX" applicationId={APP_ID} transport={t} disablePayButton />,
    );
    await waitFor(() =>
      expect(within(failed.container).getByRole('alert')).toHaveTextContent(
        DEFAULT_MESSAGES.loadFailed,
      ),
    );
    expect(await axe(failed.container)).toHaveNoViolations();
  });
});
