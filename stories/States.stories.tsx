import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { DEFAULT_MESSAGES, ServicePay } from 'servicepay';
import { FETCH_FAILURE, PAYMENT_FAILURE } from './support/fake-backend';
import { servicePayArgs, servicePayArgTypes } from './support/meta';
import type { ServicePayStoryArgs } from './support/meta';
import { backendOf, fakeBackendLoader, withFakeBackend } from './support/with-fake-backend';
import { BACKEND_WAIT, banksArrived, errorsOf, eventsOf, partsOf, rootOf } from './support/play';
import { developerTextIn } from '../test/helpers/shopper-text';

const meta = {
  title: 'ServicePay/States',
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
          'What the shopper sees while the banks load, when the backend fails, when the ' +
          'payment is invalid, while a payment starts, and with a long list. Each state is ' +
          'exposed to CSS as `data-state` on the root and announced (`role="status"`, errors ' +
          '`role="alert"`). Switch the fake backend’s controls to move between them.',
      },
    },
  },
} satisfies Meta<ServicePayStoryArgs>;

export default meta;
type Story = StoryObj<ServicePayStoryArgs>;

export const LoadingInstitutions: Story = {
  name: 'Loading banks',
  args: { backendInstitutions: 'never-answers' },
  parameters: {
    docs: {
      description: {
        story:
          'Pay pressed before the banks have arrived: skeleton tiles, `aria-busy`, and “Loading ' +
          'banks…” announced. The list opens (and `bank_selection_opened` fires) when they arrive.',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const { canvas, pay } = partsOf(canvasElement);
    await userEvent.click(pay());
    await expect(rootOf(canvasElement)).toHaveAttribute('data-state', 'loading');
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading banks…');
    await expect(canvasElement.querySelector('[aria-busy="true"]')).toBeInTheDocument();
    await expect(eventsOf(args)).toEqual(['mounted']);
  },
};

export const FetchFailed: Story = {
  name: 'Bank list failed',
  args: { backendInstitutions: 'fail' },
  parameters: {
    docs: {
      description: {
        story:
          'The bank list cannot be fetched: the shopper is told in plain words (`role="alert"`) ' +
          'and the primary button becomes “Try again”; `errorConsumer` gets the transport’s ' +
          'text at `{ location: "fetchInstitutions" }`.',
      },
    },
  },
  play: async ({ args, canvasElement, loaded }) => {
    const backend = backendOf({ loaded });
    const { canvas } = partsOf(canvasElement);
    const retry = await canvas.findByRole('button', { name: 'Try again' }, BACKEND_WAIT);
    await expect(canvas.getByRole('alert')).toHaveTextContent(DEFAULT_MESSAGES.loadFailed);
    await expect(developerTextIn(canvasElement)).toBeUndefined();
    await expect(rootOf(canvasElement)).toHaveAttribute('data-state', 'error');
    await expect(errorsOf(args)).toEqual([{ location: 'fetchInstitutions', error: FETCH_FAILURE }]);
    await userEvent.click(retry);
    await waitFor(() => expect(args.errorConsumer).toHaveBeenCalledTimes(2), BACKEND_WAIT);
    await expect(backend.transport.methods).toEqual(['fetchInstitutions', 'fetchInstitutions']);
    await expect(await canvas.findByRole('button', { name: 'Try again' })).toBeVisible();
  },
};

export const FetchFailedThenRetry: Story = {
  name: 'Bank list failed, then Retry',
  args: { backendInstitutions: 'fail-once' },
  parameters: {
    docs: {
      description: {
        story: 'The first request fails; “Try again” succeeds and opens the bank step at once.',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const { canvas, pay, tile } = partsOf(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Try again' }, BACKEND_WAIT));
    await banksArrived(args);
    await expect(canvas.getByRole('alert')).toBeEmptyDOMElement();
    await expect(await tile('Barclays')).toBeVisible();
    await expect(pay()).toHaveAttribute('aria-expanded', 'true');
    await expect(eventsOf(args)).toEqual([
      'mounted',
      'institutions_fetched',
      'bank_selection_opened',
    ]);
    await expect(errorsOf(args)).toEqual([{ location: 'fetchInstitutions', error: FETCH_FAILURE }]);
  },
};

const TOO_LONG = 'ORDER-2024-0001-XYZ';

export const ValidationError: Story = {
  name: 'Validation error',
  args: { payment: { amount: 12.5, paymentReference: TOO_LONG } },
  parameters: {
    docs: {
      description: {
        story:
          'A payment reference of 19 characters (the limit is 18): Pay is disabled with a reason ' +
          'in the shopper’s words; `errorConsumer` gets the spec’s exact format. Edit `payment` ' +
          'to fix it.',
      },
    },
  },
  play: async ({ args, canvasElement, loaded }) => {
    const backend = backendOf({ loaded });
    const { canvas, pay } = partsOf(canvasElement);
    const message = `Input validation error: field=[paymentRequest.reference], value=[${TOO_LONG}], error=[must not be longer than 18 characters]`;
    await waitFor(() => expect(errorsOf(args)).toHaveLength(1));
    await expect(errorsOf(args)).toEqual([{ location: 'payWithBankInstitution', error: message }]);
    // No payment is prepared: the button shows no amount, is disabled, and says why.
    await expect(pay()).toHaveAccessibleName('Pay');
    await expect(pay()).toBeDisabled();
    await expect(canvas.getByText(DEFAULT_MESSAGES.paymentInvalid)).toBeVisible();
    await expect(developerTextIn(canvasElement)).toBeUndefined();
    await banksArrived(args);
    await expect(backend.transport.paymentRequests).toEqual([]);
  },
};

export const Initiating: Story = {
  name: 'Initiating (busy)',
  args: { backendPayment: 'never-answers' },
  parameters: {
    docs: {
      description: {
        story:
          'A bank was chosen and the payment is being started: that tile shows progress and ' +
          'keeps focus, the others are disabled, and “Opening …” shows on Pay and is announced.',
      },
    },
  },
  play: async ({ args, canvasElement, loaded }) => {
    const backend = backendOf({ loaded });
    const { canvas, pay, tile } = partsOf(canvasElement);
    await banksArrived(args);
    await userEvent.click(pay());
    const hsbc = await tile('HSBC UK');
    await userEvent.click(hsbc);
    await expect(rootOf(canvasElement)).toHaveAttribute('data-state', 'initiating');
    await expect(canvas.getByRole('status')).toHaveTextContent('Opening HSBC UK…');
    await expect(canvas.getByRole('button', { name: 'Opening HSBC UK…' })).toBeVisible();
    await expect(hsbc).toHaveAttribute('data-state', 'initiating');
    await expect(hsbc).toHaveFocus();
    await expect(await tile('Barclays')).toHaveAttribute('aria-disabled', 'true');
    // A second click sends nothing more: one payment in flight at a time.
    await userEvent.click(hsbc);
    await expect(backend.transport.paymentRequests).toHaveLength(1);
    await expect(eventsOf(args).slice(-2)).toEqual(['payment_initiated', 'institution_selected']);
    await expect(args.openUrl).not.toHaveBeenCalled();
  },
};

export const PaymentFailed: Story = {
  name: 'Payment failed',
  args: { backendPayment: 'fail' },
  parameters: {
    docs: {
      description: {
        story:
          'The backend refused to start the payment: the shopper is told plainly and may try ' +
          'again or pick another bank; `errorConsumer` gets the backend’s text at ' +
          '`{ location: "payWithBankInstitution" }`.',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const { canvas, pay, tile } = partsOf(canvasElement);
    await banksArrived(args);
    await userEvent.click(pay());
    await userEvent.click(await tile('Lloyds Bank'));
    await waitFor(
      () =>
        expect(canvas.getByRole('alert')).toHaveTextContent(
          DEFAULT_MESSAGES.payFailed('Lloyds Bank'),
        ),
      BACKEND_WAIT,
    );
    await expect(developerTextIn(canvasElement)).toBeUndefined();
    await expect(errorsOf(args)).toEqual([
      { location: 'payWithBankInstitution', error: PAYMENT_FAILURE },
    ]);
    await expect(rootOf(canvasElement)).toHaveAttribute('data-state', 'selecting');
    await expect(await tile('Lloyds Bank')).toHaveFocus();
    await expect(await tile('Barclays')).not.toHaveAttribute('aria-disabled');
    await expect(args.openUrl).not.toHaveBeenCalled();
  },
};

export const LongList: Story = {
  name: 'Long list (64 banks) with search',
  args: { backendBanks: 'sixty-four' },
  parameters: {
    docs: {
      description: {
        story:
          'Above eight banks a search field comes first and takes focus; it filters as one ' +
          'types, ignoring case and accents (“credit” finds “Crédit Agricole”).',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const { canvas, pay } = partsOf(canvasElement);
    await banksArrived(args);
    await userEvent.click(pay());
    const search = await canvas.findByRole('searchbox', { name: 'Search for your bank' });
    await waitFor(() => expect(search).toHaveFocus());
    const banks = () =>
      within(canvas.getByRole('list', { name: 'Banks' })).queryAllByRole('button');
    await expect(banks()).toHaveLength(64);
    await userEvent.type(search, 'zzz');
    await expect(canvas.getByText(DEFAULT_MESSAGES.noMatch('zzz'))).toBeVisible();
    await userEvent.clear(search);
    await userEvent.type(search, 'CREDIT');
    await expect(banks()).toHaveLength(2);
    await expect(canvas.getByRole('button', { name: 'Crédit Agricole' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Crédit Mutuel' })).toBeVisible();
  },
};

export const NoBanks: Story = {
  name: 'No banks available',
  args: { backendBanks: 'none' },
  play: async ({ args, canvasElement }) => {
    const { canvas, pay } = partsOf(canvasElement);
    await banksArrived(args);
    await userEvent.click(pay());
    await expect(canvas.getByText(DEFAULT_MESSAGES.noBanks)).toBeVisible();
  },
};

export const BankWithoutLogo: Story = {
  name: 'Bank without a logo',
  args: { backendBanks: 'six' },
  parameters: {
    docs: {
      description: {
        story:
          'A bank the aggregator has no logo for gets an initials badge, drawn by CSS so that ' +
          'the tile’s visible text is its accessible name (WCAG 2.5.3).',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const { pay, tile } = partsOf(canvasElement);
    await banksArrived(args);
    await userEvent.click(pay());
    const nationwide = await tile('Nationwide');
    await expect(nationwide.querySelector('img')).toBeNull();
    const badge = nationwide.querySelector('[data-initials]');
    await expect(badge).toHaveAttribute('data-initials', 'N');
    await expect(badge?.closest('[aria-hidden="true"]')).not.toBeNull();
    // The letter is drawn by CSS, so it is seen but is not part of the tile's name.
    await expect(getComputedStyle(badge as Element, '::before').content).toBe('"N"');
    await expect(nationwide).toHaveAccessibleName('Nationwide');
  },
};
