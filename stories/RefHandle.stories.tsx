import { useRef, useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ServicePay } from 'servicepay';
import type { ServicePayHandle, ServicePayProps } from 'servicepay';
import { servicePayArgs, servicePayArgTypes } from './support/meta';
import type { ServicePayStoryArgs } from './support/meta';
import { BACKEND_WAIT, banksArrived, errorsOf, eventsOf } from './support/play';
import { backendOf, fakeBackendLoader, withFakeBackend } from './support/with-fake-backend';

const CONTROLS_CSS = `
.remote { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 12px; padding: 0; border: 0; }
.remote legend { width: 100%; margin-bottom: 4px; padding: 0; font: 600 0.875rem/1.4 system-ui, sans-serif; }
.remote button { min-height: 36px; padding: 4px 10px; border: 1px solid #4b5563; border-radius: 6px; background: #f9fafb; color: #111827; font: 0.875rem system-ui, sans-serif; cursor: pointer; }
.remote output { width: 100%; font: 0.8125rem ui-monospace, monospace; color: #374151; }
`;

/** The merchant's page drives the component from its own buttons, through the ref handle. */
function RemoteControlled(props: ServicePayProps) {
  const servicePay = useRef<ServicePayHandle>(null);
  const [last, setLast] = useState('nothing called yet');
  const call = (label: string, action: (handle: ServicePayHandle) => unknown) => () => {
    const handle = servicePay.current;
    if (!handle) return;
    const result = action(handle);
    setLast(`${label} → ${result instanceof Promise ? 'Promise' : String(result)}`);
  };
  return (
    <div>
      <style>{CONTROLS_CSS}</style>
      <fieldset className="remote">
        <legend>The page’s own buttons</legend>
        <button
          type="button"
          onClick={call('createPayment(£24.99)', (h) =>
            h.createPayment({ amount: 24.99, paymentReference: 'INV-7731' }),
          )}
        >
          Prepare £24.99
        </button>
        <button
          type="button"
          onClick={call('createPayment(£0)', (h) =>
            h.createPayment({ amount: 0, paymentReference: 'INV-7731' }),
          )}
        >
          Prepare £0 (invalid)
        </button>
        <button type="button" onClick={call('toggleButton(false)', (h) => h.toggleButton(false))}>
          Disable Pay
        </button>
        <button type="button" onClick={call('toggleButton(true)', (h) => h.toggleButton(true))}>
          Enable Pay
        </button>
        <button
          type="button"
          onClick={call('openInstitutionSelection()', (h) => h.openInstitutionSelection())}
        >
          Open the bank list
        </button>
        <button
          type="button"
          onClick={call("payWithInstitution('ob-monzo')", (h) => h.payWithInstitution('ob-monzo'))}
        >
          Pay with Monzo
        </button>
        <output aria-live="polite">{last}</output>
      </fieldset>
      <ServicePay ref={servicePay} {...props} />
    </div>
  );
}

const meta = {
  title: 'ServicePay/Ref handle',
  component: ServicePay,
  tags: ['autodocs'],
  loaders: [fakeBackendLoader],
  decorators: [withFakeBackend],
  // No declarative payment: the page prepares it through the handle.
  args: { ...servicePayArgs, payment: undefined },
  argTypes: servicePayArgTypes,
  render: (args) => <RemoteControlled {...args} />,
  parameters: {
    docs: {
      description: {
        component:
          'The imperative handle (`ref`) for pages that drive the component themselves: ' +
          '`createPayment(args)`, `toggleButton(enabled)`, `openInstitutionSelection()` and ' +
          '`payWithInstitution(institutionId)`, the operations of the spec (4.4).',
      },
      source: {
        code: `const servicePay = useRef<ServicePayHandle>(null);

<button onClick={() => servicePay.current?.createPayment({ amount: 24.99, paymentReference: 'INV-7731' })}>
  Prepare £24.99
</button>
<button onClick={() => servicePay.current?.toggleButton(false)}>Disable Pay</button>
<button onClick={() => servicePay.current?.openInstitutionSelection()}>Open the bank list</button>
<button onClick={() => servicePay.current?.payWithInstitution('ob-monzo')}>Pay with Monzo</button>
<ServicePay ref={servicePay} environment="SANDBOX" applicationId={APP_ID} />`,
      },
    },
  },
} satisfies Meta<ServicePayStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

export const DrivenFromOutside: Story = {
  name: 'Driven from the page’s buttons',
  play: async ({ args, canvas, canvasElement, loaded, step }) => {
    const backend = backendOf({ loaded });
    const component = within(canvasElement.querySelector<HTMLElement>('[role="group"]')!);
    const press = (name: string) => userEvent.click(canvas.getByRole('button', { name }));
    const pay = () => component.getByRole('button', { name: /^Pay\b/ });
    await banksArrived(args);

    await step('Nothing prepared: the list refuses to open', async () => {
      await press('Open the bank list');
      await expect(errorsOf(args)).toEqual([
        {
          location: 'payWithBankInstitution',
          error:
            'servicepay: openInstitutionSelection needs a valid payment: call createPayment({ amount, paymentReference }) first',
        },
      ]);
      await expect(component.queryByRole('list', { name: 'Banks' })).not.toBeInTheDocument();
    });

    await step('createPayment: an invalid one returns false, a valid one true', async () => {
      await press('Prepare £0 (invalid)');
      await expect(canvas.getByText('createPayment(£0) → false')).toBeVisible();
      await expect(errorsOf(args).at(-1)?.error).toContain('field=[paymentRequest.amount]');
      await press('Prepare £24.99');
      await expect(canvas.getByText('createPayment(£24.99) → true')).toBeVisible();
      await expect(pay()).toHaveAccessibleName('Pay £24.99');
      await expect(component.getByRole('alert')).toBeEmptyDOMElement();
    });

    await step('toggleButton(false), toggleButton(true)', async () => {
      await press('Disable Pay');
      await expect(pay()).toBeDisabled();
      await press('Enable Pay');
      await expect(pay()).toBeEnabled();
    });

    await step('openInstitutionSelection(), then payWithInstitution(ob-monzo)', async () => {
      await press('Open the bank list');
      await expect(await component.findByRole('list', { name: 'Banks' })).toBeVisible();
      await press('Pay with Monzo');
      await waitFor(() => expect(args.openUrl).toHaveBeenCalledTimes(1), BACKEND_WAIT);
      await expect(
        backend.transport.paymentRequests.map((payment) => payment.institutionId),
      ).toEqual(['ob-monzo']);
      await expect(backend.transport.paymentRequests[0]?.paymentRequest.amount).toBe(24.99);
    });

    await expect(eventsOf(args)).toEqual([
      'mounted',
      'institutions_fetched',
      'pay_button_disabled',
      'pay_button_enabled',
      'bank_selection_opened',
      'payment_initiated',
      'institution_selected',
      'awaiting_authorisation',
    ]);
  },
};
