import { useRef } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { DEFAULT_MESSAGES, ServicePay } from 'servicepay';
import type { ServicePayHandle, ServicePayProps } from 'servicepay';
import { servicePayArgs, servicePayArgTypes } from './support/meta';
import type { ServicePayStoryArgs } from './support/meta';
import { backendOf, fakeBackendLoader, withFakeBackend } from './support/with-fake-backend';
import {
  APP_ID,
  BACKEND_WAIT,
  ORDER,
  WHOLE_PAYMENT,
  banksArrived,
  eventsOf,
  partsOf,
  rootOf,
} from './support/play';

const meta = {
  title: 'ServicePay/Component',
  component: ServicePay,
  tags: ['autodocs'],
  loaders: [fakeBackendLoader],
  decorators: [withFakeBackend],
  args: servicePayArgs,
  argTypes: servicePayArgTypes,
  parameters: {
    docs: {
      description: {
        component:
          'The pay-by-bank component: title, label, one Pay button and, under it, the bank list. ' +
          'Every story runs against an in-browser fake backend (its controls are at the bottom of ' +
          'the table: latency and failures); events and errors appear in the actions panel.',
      },
    },
  },
} satisfies Meta<ServicePayStoryArgs>;

export default meta;
type Story = StoryObj<ServicePayStoryArgs>;

export const Default: Story = {
  play: async ({ args, canvasElement }) => {
    const { canvas, pay } = partsOf(canvasElement);
    await expect(canvas.getByText('Pay with your banking app')).toBeVisible();
    await expect(canvas.getByText('Pay securely with your banking app')).toBeVisible();
    await expect(pay()).toHaveAccessibleName('Pay £12.50');
    await expect(pay()).toHaveAttribute('aria-expanded', 'false');
    await banksArrived(args);
    await expect(rootOf(canvasElement)).toHaveAttribute('data-state', 'idle');
    await expect(eventsOf(args)).toEqual(['mounted', 'institutions_fetched']);
  },
};

export const CustomText: Story = {
  name: 'Custom title, label and payLabel',
  args: {
    title: 'Pay by bank',
    label: 'Straight from your bank account: no card, no fees.',
    payLabel: 'Pay now · £',
  },
  play: async ({ canvasElement }) => {
    const { canvas } = partsOf(canvasElement);
    await expect(canvas.getByText('Pay by bank')).toBeVisible();
    await expect(
      canvas.getByText('Straight from your bank account: no card, no fees.'),
    ).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Pay now · £12.50' })).toBeEnabled();
    await expect(rootOf(canvasElement)).toHaveAccessibleName('Pay by bank');
  },
};

export const PickABank: Story = {
  name: 'Open the list and pick a bank',
  parameters: {
    docs: {
      description: {
        story:
          'The whole happy path: Pay opens the list, a bank starts the payment, and the bank’s ' +
          'authorisation page is opened (here `openUrl` is a spy, so the story stays put).',
      },
    },
  },
  play: async ({ args, canvasElement, loaded, step }) => {
    const backend = backendOf({ loaded });
    const { canvas, pay, tile } = partsOf(canvasElement);
    await step('Pay opens the bank list, focus on the first bank', async () => {
      await banksArrived(args);
      await userEvent.click(pay());
      await expect(pay()).toHaveAttribute('aria-expanded', 'true');
      await expect(canvas.getByRole('list', { name: 'Banks' })).toBeVisible();
      await waitFor(async () => expect(await tile('Barclays')).toHaveFocus());
      await expect(rootOf(canvasElement)).toHaveAttribute('data-state', 'selecting');
    });
    await step('Monzo starts the payment and opens its authorisation page', async () => {
      await userEvent.click(await tile('Monzo'));
      await waitFor(() => expect(args.openUrl).toHaveBeenCalledTimes(1), BACKEND_WAIT);
      await expect(args.openUrl).toHaveBeenCalledWith(
        'https://bank.example/ob-monzo/authorise?payment_id=pay_000001',
        expect.objectContaining({ paymentId: 'pay_000001' }),
      );
    });
    await step('The events arrived in order, and the backend got the payment', async () => {
      await expect(eventsOf(args)).toEqual(WHOLE_PAYMENT);
      await expect(args.errorConsumer).not.toHaveBeenCalled();
      await expect(backend.transport.paymentRequests).toHaveLength(1);
      await expect(backend.transport.paymentRequests[0]).toMatchObject({
        environment: 'SANDBOX',
        applicationId: APP_ID,
        institutionId: 'ob-monzo',
        paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
        paymentMetadata: ORDER.metadata,
        agentType: 'WEB_BROWSER',
      });
      await expect(args.onPaymentInitiated).toHaveBeenCalledWith({
        merchantPaymentId: backend.transport.paymentRequests[0]!.merchantPaymentId,
        institutionId: 'ob-monzo',
      });
      await expect(canvas.getByRole('status')).toHaveTextContent(DEFAULT_MESSAGES.awaiting);
      await expect(rootOf(canvasElement)).toHaveAttribute('data-state', 'awaiting-authorisation');
    });
  },
};

export const KeyboardOnly: Story = {
  name: 'Keyboard only',
  parameters: {
    docs: {
      description: {
        story:
          'Tab reaches Pay, Enter opens the bank step with focus on the first bank; the banks are ' +
          'one Tab stop, arrow keys move between them (by item in this narrow list), Home and ' +
          'End go to the ends, Escape closes the step and puts focus back on Pay.',
      },
    },
  },
  play: async ({ args, canvasElement, step }) => {
    const { canvas, pay, tile } = partsOf(canvasElement);
    await banksArrived(args);
    await step('Tab to Pay, Enter opens the list on the first bank', async () => {
      await userEvent.tab();
      await expect(pay()).toHaveFocus();
      await userEvent.keyboard('{Enter}');
      await waitFor(async () => expect(await tile('Barclays')).toHaveFocus());
      await expect(pay()).toHaveAttribute('aria-expanded', 'true');
    });
    await step('Arrow keys, Home and End move between banks; Tab leaves them', async () => {
      await userEvent.keyboard('{ArrowDown}');
      await expect(await tile('HSBC UK')).toHaveFocus();
      await userEvent.keyboard('{ArrowDown}');
      await expect(await tile('Lloyds Bank')).toHaveFocus();
      await userEvent.keyboard('{ArrowUp}');
      await expect(await tile('HSBC UK')).toHaveFocus();
      await userEvent.keyboard('{End}');
      await expect(await tile('Nationwide')).toHaveFocus();
      await userEvent.keyboard('{Home}');
      await expect(await tile('Barclays')).toHaveFocus();
      await userEvent.keyboard('{ArrowDown}');
      // One Tab stop for the set: Tab goes on past the banks, Shift+Tab comes back to HSBC.
      await userEvent.tab();
      await expect(await tile('HSBC UK')).not.toHaveFocus();
      await userEvent.tab({ shift: true });
      await expect(await tile('HSBC UK')).toHaveFocus();
    });
    await step('Escape closes the list and returns focus to Pay', async () => {
      await userEvent.keyboard('{Escape}');
      await expect(canvas.queryByRole('list', { name: 'Banks' })).not.toBeInTheDocument();
      await expect(pay()).toHaveFocus();
      await expect(pay()).toHaveAttribute('aria-expanded', 'false');
    });
    await step('Enter again, ArrowDown to NatWest, Enter pays', async () => {
      await userEvent.keyboard('{Enter}');
      await waitFor(async () => expect(await tile('Barclays')).toHaveFocus());
      await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
      await expect(await tile('NatWest')).toHaveFocus();
      await userEvent.keyboard('{Enter}');
      await waitFor(() => expect(args.openUrl).toHaveBeenCalledTimes(1), BACKEND_WAIT);
      await expect(args.openUrl).toHaveBeenCalledWith(
        expect.stringContaining('https://bank.example/ob-natwest/'),
        expect.objectContaining({ paymentId: 'pay_000001' }),
      );
      await expect(eventsOf(args)).toEqual([
        ...WHOLE_PAYMENT.slice(0, 2),
        'bank_selection_opened',
        'bank_selection_opened',
        ...WHOLE_PAYMENT.slice(3),
      ]);
    });
  },
};

export const PayButtonDisabled: Story = {
  name: 'Pay button disabled at start',
  args: { disablePayButton: true, disabledReason: 'Choose a delivery slot to pay.' },
  parameters: {
    docs: {
      description: {
        story:
          '`disablePayButton` disables Pay until the page enables it; the reason is shown and ' +
          'is the button’s accessible description. Untick the control: a later change of the ' +
          'prop acts as `toggleButton`.',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const { pay } = partsOf(canvasElement);
    await expect(pay()).toBeDisabled();
    await expect(pay()).toHaveAccessibleDescription('Choose a delivery slot to pay.');
    await banksArrived(args);
    await expect(eventsOf(args)).toEqual(['mounted', 'institutions_fetched']);
  },
};

/** A checkout where Pay is enabled only once the terms are accepted, through the ref handle. */
function TermsCheckout(props: ServicePayProps) {
  const servicePay = useRef<ServicePayHandle>(null);
  return (
    <div>
      <p>
        <label>
          <input
            type="checkbox"
            onChange={(event) => servicePay.current?.toggleButton(event.target.checked)}
          />{' '}
          I accept the terms of sale
        </label>
      </p>
      <ServicePay ref={servicePay} {...props} disablePayButton />
    </div>
  );
}

export const ToggleButton: Story = {
  name: 'Pay button toggled (toggleButton)',
  args: { disabledReason: 'Accept the terms of sale to pay.' },
  render: (args) => <TermsCheckout {...args} />,
  parameters: {
    docs: {
      description: {
        story:
          'Pay starts disabled; the page’s own checkbox calls `toggleButton(checked)` on the ref ' +
          'handle, which emits `pay_button_enabled` / `pay_button_disabled`.',
      },
      source: {
        code: `const servicePay = useRef<ServicePayHandle>(null);

<input type="checkbox" onChange={(e) => servicePay.current?.toggleButton(e.target.checked)} />
<ServicePay ref={servicePay} disablePayButton disabledReason="Accept the terms of sale to pay." {...options} />`,
      },
    },
  },
  play: async ({ args, canvas, canvasElement, step }) => {
    const { pay } = partsOf(canvasElement);
    const terms = canvas.getByRole('checkbox', { name: 'I accept the terms of sale' });
    const toggles = () => eventsOf(args).filter((event) => event.startsWith('pay_button'));
    await step('Disabled at start, with its reason', async () => {
      await expect(pay()).toBeDisabled();
      await expect(pay()).toHaveAccessibleDescription('Accept the terms of sale to pay.');
      await expect(toggles()).toEqual([]);
    });
    await step('toggleButton(true), toggleButton(false), toggleButton(true)', async () => {
      await userEvent.click(terms);
      await expect(pay()).toBeEnabled();
      await expect(pay()).not.toHaveAccessibleDescription();
      await userEvent.click(terms);
      await expect(pay()).toBeDisabled();
      await userEvent.click(terms);
      await expect(pay()).toBeEnabled();
      await expect(toggles()).toEqual([
        'pay_button_enabled',
        'pay_button_disabled',
        'pay_button_enabled',
      ]);
    });
    await step('Enabled, Pay opens the list', async () => {
      await banksArrived(args);
      await userEvent.click(pay());
      await expect(await within(canvasElement).findByRole('list', { name: 'Banks' })).toBeVisible();
    });
  },
};

export const IsWebView: Story = {
  name: 'isWebView (Android WebView host)',
  args: { isWebView: true },
  parameters: {
    docs: {
      description: {
        story:
          'The authorisation URL handed to `openUrl` ends with `#OPEN_AS_APPLINK`; the host app ' +
          'strips it (`stripAppLinkFragment`) before opening the bank externally. Android only.',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const { pay, tile } = partsOf(canvasElement);
    await banksArrived(args);
    await userEvent.click(pay());
    await userEvent.click(await tile('Barclays'));
    await waitFor(() => expect(args.openUrl).toHaveBeenCalledTimes(1), BACKEND_WAIT);
    await expect(args.openUrl).toHaveBeenCalledWith(
      'https://bank.example/ob-barclays/authorise?payment_id=pay_000001#OPEN_AS_APPLINK',
      expect.objectContaining({ paymentId: 'pay_000001' }),
    );
  },
};

export const MobileApplicationAgent: Story = {
  name: 'MOBILE_APPLICATION agent',
  args: { agentType: 'MOBILE_APPLICATION' },
  parameters: {
    docs: {
      description: {
        story:
          'After authorisation the shopper returns to the merchant’s mobile callback: the ' +
          'payment request carries `agentType: MOBILE_APPLICATION` (a payment’s own `agentType` ' +
          'overrides the prop).',
      },
    },
  },
  play: async ({ args, canvasElement, loaded }) => {
    const backend = backendOf({ loaded });
    const { pay, tile } = partsOf(canvasElement);
    await banksArrived(args);
    await userEvent.click(pay());
    await userEvent.click(await tile('HSBC UK'));
    await waitFor(() => expect(args.openUrl).toHaveBeenCalledTimes(1), BACKEND_WAIT);
    await expect(backend.transport.paymentRequests.map((payment) => payment.agentType)).toEqual([
      'MOBILE_APPLICATION',
    ]);
  },
};
