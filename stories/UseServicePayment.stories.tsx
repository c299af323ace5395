import { useId, useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { useServicePayment } from 'servicepay';
import type { UseServicePaymentOptions } from 'servicepay';
import { servicePayArgs, servicePayArgTypes } from './support/meta';
import { BACKEND_WAIT, errorsOf, eventsOf } from './support/play';
import { backendOf, fakeBackendLoader, withFakeBackend } from './support/with-fake-backend';
import type { FakeBackendArgs } from './support/with-fake-backend';

const CHECKOUT_CSS = `
.custom-checkout { max-width: 420px; padding: 20px; border-radius: 16px; background: #fafaf9; color: #1c1917; font: 1rem/1.5 system-ui, sans-serif; box-shadow: 0 1px 3px rgb(0 0 0 / 0.2); }
.custom-checkout h2 { margin: 0 0 4px; font-size: 1.25rem; }
.custom-checkout p { margin: 0 0 12px; }
.custom-checkout fieldset { display: grid; gap: 6px; margin: 0 0 12px; padding: 0; border: 0; }
.custom-checkout legend { margin-bottom: 6px; font-weight: 600; }
.custom-checkout label { display: flex; align-items: center; gap: 10px; padding: 6px 10px; border: 1px solid #a8a29e; border-radius: 10px; cursor: pointer; }
.custom-checkout label:has(:checked) { border-color: #7c2d12; background: #fff7ed; }
.custom-checkout img, .custom-checkout .badge { width: 28px; height: 28px; border-radius: 6px; }
.custom-checkout .badge { display: grid; place-items: center; background: #e7e5e4; font-size: 0.75rem; font-weight: 700; }
.custom-checkout .pay { width: 100%; min-height: 44px; border: 0; border-radius: 10px; background: #7c2d12; color: #fff; font: 600 1rem system-ui, sans-serif; cursor: pointer; }
.custom-checkout .pay:disabled { background: #d6d3d1; color: #292524; cursor: not-allowed; }
.custom-checkout [role='alert'] { color: #991b1b; }
.custom-checkout dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; margin: 12px 0 0; font: 0.75rem ui-monospace, monospace; color: #44403c; }
.custom-checkout dd { margin: 0; }
`;

/** A merchant's own checkout design on top of the headless hook. */
function CustomCheckout(options: UseServicePaymentOptions) {
  const payment = useServicePayment(options);
  const { status, institutions, institutionsState, prepared, selectedInstitution, text } = payment;
  const [chosen, setChosen] = useState<string>();
  const id = useId();
  const bank = institutions.find((institution) => institution.id === chosen);
  const busy = status === 'initiating';
  const amount = prepared ? `£${prepared.amount.toFixed(2)}` : '';
  const announcement =
    institutionsState === 'loading'
      ? 'Fetching your banks…'
      : busy
        ? `Starting your payment at ${selectedInstitution?.name}…`
        : status === 'awaiting-authorisation'
          ? `Approve the payment in ${selectedInstitution?.name}.`
          : '';

  return (
    <section className="custom-checkout" aria-labelledby={`${id}title`} data-state={status}>
      <style>{CHECKOUT_CSS}</style>
      <h2 id={`${id}title`}>Checkout</h2>
      <p>
        Total <strong>{amount}</strong>, reference {prepared?.reference}
      </p>
      <fieldset disabled={busy}>
        <legend>Pay from your bank</legend>
        {institutions.map((institution) => (
          <label key={institution.id}>
            <input
              type="radio"
              name={`${id}bank`}
              value={institution.id}
              checked={chosen === institution.id}
              onChange={() => setChosen(institution.id)}
            />
            {institution.iconUrl ? (
              <img src={institution.iconUrl} alt="" width={28} height={28} />
            ) : (
              <span className="badge" aria-hidden="true">
                {institution.name.slice(0, 2).toUpperCase()}
              </span>
            )}
            {institution.name}
          </label>
        ))}
      </fieldset>
      {institutionsState === 'failed' && (
        <button type="button" className="pay" onClick={payment.retry}>
          Try again
        </button>
      )}
      {institutionsState !== 'failed' && (
        <button
          type="button"
          className="pay"
          disabled={!bank || !payment.payButtonEnabled || busy}
          onClick={() => bank && void payment.payWithInstitution(bank.id)}
        >
          {bank ? `Pay ${amount} with ${bank.name}` : 'Choose your bank'}
        </button>
      )}
      <p role="status">{announcement}</p>
      {/* The shopper's words from the messages table; `error` is the developer's text. */}
      <p role="alert">{text.alert}</p>
      <dl aria-label="Hook state">
        <dt>status</dt>
        <dd>{status}</dd>
        <dt>institutionsState</dt>
        <dd>{institutionsState}</dd>
        <dt>paymentState</dt>
        <dd>{payment.paymentState}</dd>
        <dt>next merchantPaymentId</dt>
        <dd>{payment.merchantPaymentId.slice(0, 8)}…</dd>
      </dl>
    </section>
  );
}

const meta = {
  title: 'ServicePay/useServicePayment (headless)',
  tags: ['autodocs'],
  loaders: [fakeBackendLoader],
  decorators: [withFakeBackend],
  args: { ...servicePayArgs, payment: { amount: 42, paymentReference: 'BASKET-88' } },
  argTypes: {
    ...servicePayArgTypes,
    disablePayButton: { control: 'boolean' },
    isWebView: { control: 'boolean' },
  },
  render: (args) => <CustomCheckout {...args} />,
  parameters: {
    docs: {
      description: {
        component:
          '`useServicePayment(options)` is the same engine with no UI: it takes the behaviour ' +
          'options of `<ServicePay>` and returns the state (`status`, `institutions`, ' +
          '`institutionsState`, `paymentState`, `prepared`, `selectedInstitution`, `error`, ' +
          '`merchantPaymentId`, ...) and the actions (`payWithInstitution`, `retry`, ...). Here ' +
          'it drives a checkout with radio buttons instead of tiles.',
      },
      source: {
        code: `function CustomCheckout() {
  const payment = useServicePayment({
    environment: 'SANDBOX',
    applicationId: APP_ID,
    payment: { amount: 42, paymentReference: 'BASKET-88' },
  });
  const [chosen, setChosen] = useState<string>();
  return (
    <fieldset disabled={payment.status === 'initiating'}>
      {payment.institutions.map((bank) => (
        <label key={bank.id}>
          <input type="radio" name="bank" onChange={() => setChosen(bank.id)} /> {bank.name}
        </label>
      ))}
      <button disabled={!chosen} onClick={() => chosen && payment.payWithInstitution(chosen)}>Pay</button>
    </fieldset>
  );
}`,
      },
    },
  },
} satisfies Meta<UseServicePaymentOptions & FakeBackendArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

export const CustomUi: Story = {
  name: 'Driving a custom UI',
  play: async ({ args, canvas, loaded, step }) => {
    const backend = backendOf({ loaded });
    await step('The banks arrive as radio buttons', async () => {
      await userEvent.click(await canvas.findByRole('radio', { name: 'Monzo' }, BACKEND_WAIT));
      await expect(canvas.getAllByRole('radio')).toHaveLength(6);
    });
    await step('Pay with the chosen bank', async () => {
      await userEvent.click(canvas.getByRole('button', { name: 'Pay £42.00 with Monzo' }));
      await waitFor(() => expect(args.openUrl).toHaveBeenCalledTimes(1), BACKEND_WAIT);
      await expect(canvas.getByRole('status')).toHaveTextContent('Approve the payment in Monzo.');
      await expect(canvas.getByRole('region', { name: 'Checkout' })).toHaveAttribute(
        'data-state',
        'awaiting-authorisation',
      );
    });
    await expect(eventsOf(args)).toEqual([
      'mounted',
      'institutions_fetched',
      'payment_initiated',
      'institution_selected',
      'awaiting_authorisation',
    ]);
    await expect(errorsOf(args)).toEqual([]);
    await expect(backend.transport.paymentRequests[0]).toMatchObject({
      institutionId: 'ob-monzo',
      paymentRequest: { amount: 42, currency: 'GBP', reference: 'BASKET-88' },
    });
  },
};

export const CustomUiFetchFailed: Story = {
  name: 'Custom UI, bank list failed then retried',
  args: { backendInstitutions: 'fail-once' },
  play: async ({ args, canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Try again' }, BACKEND_WAIT));
    await expect(
      await canvas.findByRole('radio', { name: 'Barclays' }, BACKEND_WAIT),
    ).toBeVisible();
    await expect(errorsOf(args).map((error) => error.location)).toEqual(['fetchInstitutions']);
  },
};
