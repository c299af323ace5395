import { StrictMode } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
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
import { RENDERERS } from '../helpers/renderers';
import type { MountOptions } from '../helpers/renderers';

const PAYMENT = { amount: 12.5, paymentReference: 'ORDER-1042' };
const FIRST_PAYMENT = defaultInitiatedPayment(1);
const INVALID =
  'Input validation error: field=[paymentRequest.reference], value=[ABCDEFGHIJKLMNOPQRS], error=[must not be longer than 18 characters]';

const payButton = () => screen.getByRole('button', { name: /^Pay\b/ });

/**
 * The component's behaviour on both renderers (test/helpers/renderers.tsx): React's
 * <ServicePay> and the Preact build window.Service ships. What only React has (StrictMode,
 * props changed on a re-render) is in the React-only block below; what only the Service class
 * has (injectComponent, its constructor) in test/vanilla/service.test.tsx.
 */
describe.each(RENDERERS)('$name', (renderer) => {
  beforeAll(() => renderer.prepare(), 60_000);
  async function setup(options: MountOptions = {}, transport = fakeTransport()) {
    return { ...(await renderer.mount({ transport, ...options })), transport };
  }

  it('shows the title, label and the Pay button with the amount', async () => {
    const { log } = await setup();
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
    const { user, log, openUrl, transport } = await setup({
      payment: { ...PAYMENT, metadata: { orderId: 1042 } },
    });
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const barclays = await screen.findByRole('button', { name: 'Barclays' });
    await waitFor(() => expect(barclays).toHaveFocus());
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
      paymentMetadata: { orderId: 1042 },
      agentType: 'WEB_BROWSER',
    });
    expect(await screen.findByRole('status')).toHaveTextContent(DEFAULT_MESSAGES.awaiting);
    expect(screen.queryByRole('list', { name: 'Banks' })).not.toBeInTheDocument();
    // Ready for another payment.
    expect(payButton()).toBeEnabled();
  });

  it('sends one payment for a double click', async () => {
    const t = fakeTransport();
    t.replyOnce('initiatePayment', reply.defer());
    const { user, openUrl } = await setup({}, t);
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
    await waitFor(() => expect(openUrl).toHaveBeenCalledTimes(1));
    expect(t.paymentCalls).toHaveLength(1);
  });

  it('opens the list when the banks arrive if asked before', async () => {
    const t = fakeTransport();
    t.replyOnce('fetchInstitutions', reply.defer());
    const { call, log } = await setup({}, t);
    await screen.findByRole('button', { name: 'Pay £12.50' });
    await call((h) => h.openInstitutionSelection());
    await waitFor(() => expect(screen.getByRole('group')).toHaveAttribute('data-state', 'loading'));
    expect(screen.getByRole('status')).toHaveTextContent('Loading banks…');
    expect(log.entries).toEqual(['event:mounted']);
    await act(async () => t.fetchCalls[0]!.resolve(BANKS));
    const barclays = await screen.findByRole('button', { name: 'Barclays' });
    await waitFor(() => expect(barclays).toHaveFocus());
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
    const { user, log, container } = await setup({}, t);
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(DEFAULT_MESSAGES.loadFailed),
    );
    expect(developerTextIn(container)).toBeUndefined();
    expect(log.entries).toContain(
      'error:fetchInstitutions:Network error: could not reach http://127.0.0.1:4010',
    );
    // The one primary button is the retry; pressing it opens the step once the banks arrive.
    expect(screen.queryByRole('button', { name: /^Pay\b/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    // Empty (Preact may keep an empty text node where React keeps none).
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(''));
    const barclays = await screen.findByRole('button', { name: 'Barclays' });
    await waitFor(() => expect(barclays).toHaveFocus());
    expect(t.fetchCalls).toHaveLength(2);
  });

  it('disables Pay with a plain reason for an invalid payment, reports it, and sends nothing', async () => {
    const { user, log, transport, container } = await setup({
      payment: { amount: 12.5, paymentReference: 'ABCDEFGHIJKLMNOPQRS' },
    });
    await waitFor(() => expect(log.entries).toContain(`error:payWithBankInstitution:${INVALID}`));
    await waitFor(() => expect(payButton()).toHaveAccessibleName('Pay'));
    expect(payButton()).toBeDisabled();
    expect(payButton()).toHaveAccessibleDescription(DEFAULT_MESSAGES.paymentInvalid);
    expect(developerTextIn(container)).toBeUndefined();
    await user.click(payButton());
    expect(screen.queryByRole('list', { name: 'Banks' })).not.toBeInTheDocument();
    expect(transport.paymentRequests).toHaveLength(0);
  });

  it('createPayment refuses invalid arguments from the handle, and the old payment with them', async () => {
    const { call, log, user, transport } = await setup();
    await screen.findByRole('button', { name: 'Pay £12.50' });
    expect(
      await call((h) => h.createPayment({ amount: 12.5, paymentReference: 'ABCDEFGHIJKLMNOPQRS' })),
    ).toBe(false);
    expect(log.entries).toContain(`error:payWithBankInstitution:${INVALID}`);
    const pay = await screen.findByRole('button', { name: 'Pay' });
    expect(pay).toBeDisabled();
    expect(pay).toHaveAccessibleDescription(DEFAULT_MESSAGES.paymentInvalid);
    expect(developerTextIn(document.body)).toBeUndefined();
    await user.click(pay);
    expect(screen.queryByRole('button', { name: 'Barclays' })).not.toBeInTheDocument();
    expect(transport.paymentRequests).toEqual([]);
  });

  it('closes the list on Escape and gives focus back to Pay', async () => {
    const { user } = await setup();
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const barclays = await screen.findByRole('button', { name: 'Barclays' });
    await waitFor(() => expect(barclays).toHaveFocus());
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'HSBC UK' })).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'Banks' })).not.toBeInTheDocument(),
    );
    await waitFor(() => expect(payButton()).toHaveFocus());
    expect(payButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('is operable by keyboard alone', async () => {
    const { user, openUrl } = await setup();
    await screen.findByRole('button', { name: 'Pay £12.50' });
    await user.tab();
    expect(payButton()).toHaveFocus();
    await user.keyboard('{Enter}');
    const barclays = await screen.findByRole('button', { name: 'Barclays' });
    await waitFor(() => expect(barclays).toHaveFocus());
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'HSBC UK' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(openUrl).toHaveBeenCalledTimes(1));
  });

  it('toggles the Pay button from the handle, saying why it is disabled', async () => {
    const { call, log } = await setup({ disablePayButton: true });
    const button = await screen.findByRole('button', { name: 'Pay £12.50' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('Payment is not available yet.');
    await call((h) => h.toggleButton(true));
    await waitFor(() => expect(button).toBeEnabled());
    await call((h) => h.toggleButton(false));
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAccessibleDescription('Payment is not available yet.');
    await call((h) => h.toggleButton(true));
    await waitFor(() => expect(button).toBeEnabled());
    expect(log.events().filter((e) => e.startsWith('pay_button'))).toEqual([
      ServiceEvent.PAY_BUTTON_ENABLED,
      ServiceEvent.PAY_BUTTON_DISABLED,
      ServiceEvent.PAY_BUTTON_ENABLED,
    ]);
  });

  it('reports a toggleButton value other than true or false', async () => {
    const { call, log } = await setup();
    await waitFor(() => expect(log.events()).toContain('institutions_fetched'));
    log.clear();
    await call((h) => h.toggleButton('yes' as unknown as boolean));
    expect(log.entries).toEqual([
      'error:payWithBankInstitution:servicepay: toggleButton expects true or false, got yes',
    ]);
  });

  it('pays from the handle, with the app-link fragment and agent type', async () => {
    const onPaymentInitiated = vi.fn();
    const { call, openUrl, transport } = await setup({
      isWebView: true,
      agentType: 'MOBILE_APPLICATION',
      onPaymentInitiated,
    });
    await screen.findByRole('button', { name: 'Pay £12.50' });
    await call((h) => h.payWithInstitution('hsbc'));
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
    await call((h) =>
      h.createPayment({ amount: 3, paymentReference: 'R2', agentType: 'WEB_BROWSER' }),
    );
    await call((h) => h.payWithInstitution('hsbc'));
    const [first, second] = transport.paymentRequests;
    expect(second!.agentType).toBe('WEB_BROWSER');
    expect(second!.merchantPaymentId).not.toBe(first!.merchantPaymentId);
  });

  it('never redirects once taken out of the page, and aborts the request', async () => {
    // Answered by the test, whatever the signal says: a late answer after the abort.
    const t = createFakeTransport({ institutions: BANKS, respectAbort: false });
    t.replyOnce('initiatePayment', reply.defer());
    const { call, openUrl, remove } = await setup({}, t);
    await screen.findByRole('button', { name: 'Pay £12.50' });
    await call((h) => void h.payWithInstitution('monzo'));
    await waitFor(() => expect(t.paymentCalls).toHaveLength(1));
    remove();
    await Promise.resolve();
    expect(t.paymentCalls[0]!.signal?.aborted).toBe(true);
    t.paymentCalls[0]!.resolve({ paymentId: 'p', authorisationUrl: 'https://bank.test/late' });
    await new Promise((r) => setTimeout(r, 0));
    expect(openUrl).not.toHaveBeenCalled();
  });

  it('renders markup in texts and bank names as text', async () => {
    const t = fakeTransport([{ id: 'x', name: '<img src=x onerror=alert(1)>' }]);
    const { user, container } = await setup(
      { title: '<b>Title</b>', label: '<i>l</i>', payLabel: '<s>Pay</s> £' },
      t,
    );
    expect(await screen.findByText('<b>Title</b>')).toBeInTheDocument();
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
    const { user } = await setup({}, fakeTransport(many));
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const search = await screen.findByRole('searchbox', { name: 'Search for your bank' });
    await waitFor(() => expect(search).toHaveFocus());
    await user.type(search, 'SOCIETE');
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Société Générale' })).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'nowhere');
    expect(screen.getByText(DEFAULT_MESSAGES.noMatch('nowhere'))).toBeInTheDocument();
  });

  it('filters the banks on every keystroke, not on blur or Enter', async () => {
    const { user } = await setup({}, fakeTransport(SEARCHABLE_BANKS));
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    await expectSearchOnEachKey(user);
  });

  it('shows initials for a bank without an icon', async () => {
    const { user } = await setup();
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const monzo = await screen.findByRole('button', { name: 'Monzo' });
    expect(monzo.querySelector('img')).toBeNull();
    // Drawn by CSS from data-initials: the tile's text is the bank's name alone (WCAG 2.5.3).
    expect(monzo.querySelector('[data-initials]')).toHaveAttribute('data-initials', 'M');
    expect(monzo).toHaveTextContent(/^Monzo$/);
  });

  it('injects the stylesheets once, with the nonce', async () => {
    document.head.innerHTML = '';
    await setup({ nonce: 'abc123' });
    await renderer.mount({ transport: fakeTransport() });
    await waitFor(() => expect(screen.getAllByRole('group')).toHaveLength(2));
    const service = document.head.querySelectorAll('style[data-servicepay="service"]');
    expect(service).toHaveLength(1);
    expect(service[0]).toHaveAttribute('nonce', 'abc123');
    expect(service[0]!.textContent).toContain('.service-root');
    const tailwind = document.head.querySelectorAll('style[data-servicepay="tailwind"]');
    expect(tailwind).toHaveLength(1);
    expect(tailwind[0]).toHaveAttribute('nonce', 'abc123');
    expect(screen.getAllByRole('group')[0]).toHaveClass('service-root');
    expect(document.querySelector('[style]')).toBeNull();
  });

  it('drops service classes with disableVolumeStyling, and keeps data-state', async () => {
    document.head.innerHTML = '';
    const { container } = await setup({ disableVolumeStyling: true, disableTailwindStyling: true });
    await screen.findByRole('button', { name: 'Pay £12.50' });
    expect(container.innerHTML).not.toMatch(/service-/);
    expect(screen.getByRole('group')).toHaveAttribute('data-state', 'idle');
    expect(document.head.querySelector('style[data-servicepay]')).toBeNull();
  });
});

describe('<ServicePay> (React only)', () => {
  function setup(props: Partial<ServicePayProps> = {}, transport = fakeTransport()) {
    return { ...renderServicePay({ transport, ...props }), transport };
  }

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

  it('enables the Pay button when the disablePayButton prop turns false', async () => {
    const { log, rerender } = setup({ disablePayButton: true });
    const button = await screen.findByRole('button', { name: 'Pay £12.50' });
    expect(button).toBeDisabled();
    rerender({ disablePayButton: false });
    await waitFor(() => expect(button).toBeEnabled());
    expect(log.events().filter((e) => e.startsWith('pay_button'))).toEqual([
      ServiceEvent.PAY_BUTTON_ENABLED,
    ]);
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
});
