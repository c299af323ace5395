import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { DEFAULT_MESSAGES, ServicePay } from 'servicepay';
import { servicePayArgs, servicePayArgTypes } from './support/meta';
import type { ServicePayStoryArgs } from './support/meta';
import { fakeBackendLoader, withFakeBackend } from './support/with-fake-backend';
import { BACKEND_WAIT, banksArrived, errorsOf, partsOf, rootOf } from './support/play';
import { PSEUDO_MESSAGES, developerTextIn, englishLeftIn } from '../test/helpers/shopper-text';

const meta = {
  title: 'ServicePay/Shopper',
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
          'What a shopper meets on a phone and when things go wrong: every sentence comes from ' +
          'the messages table (`messages` option), never the developer’s text, which goes to ' +
          '`errorConsumer`. The Storybook test project checks every story here with axe in ' +
          'light and again in dark (`prefers-color-scheme`).',
      },
    },
  },
} satisfies Meta<ServicePayStoryArgs>;

export default meta;
type Story = StoryObj<ServicePayStoryArgs>;

export const InvalidPayment: Story = {
  name: 'Invalid payment (Pay disabled, with a reason)',
  args: { payment: { amount: 0, paymentReference: '' } },
  play: async ({ args, canvasElement }) => {
    const { canvas, pay } = partsOf(canvasElement);
    await waitFor(() => expect(pay()).toBeDisabled());
    await expect(pay()).toHaveAccessibleDescription(DEFAULT_MESSAGES.paymentInvalid);
    await expect(canvas.getByText(DEFAULT_MESSAGES.paymentInvalid)).toBeVisible();
    await expect(errorsOf(args)[0]?.error).toMatch(/^Input validation error: field=\[/);
    await expect(developerTextIn(canvasElement)).toBeUndefined();
  },
};

export const SlowLoad: Story = {
  name: 'Slow load (says so, offers Try again)',
  args: { backendInstitutions: 'never-answers' },
  parameters: {
    docs: {
      description: {
        story:
          'The banks have not arrived after five seconds: the shopper is told, and offered a ' +
          'retry well before the transport gives up.',
      },
    },
  },
  play: async ({ canvasElement }) => {
    const { canvas, pay } = partsOf(canvasElement);
    await userEvent.click(pay());
    await expect(canvas.getByRole('status')).toHaveTextContent(DEFAULT_MESSAGES.loading);
    const retry = await canvas.findByRole('button', { name: 'Try again' }, { timeout: 8000 });
    await expect(canvas.getByRole('status')).toHaveTextContent(DEFAULT_MESSAGES.slow);
    await expect(retry).toBeVisible();
  },
};

export const BrokenLogos: Story = {
  name: 'Broken logos (initials instead)',
  args: { backendBanks: 'broken-logos' },
  play: async ({ args, canvasElement }) => {
    const { pay, tile } = partsOf(canvasElement);
    await banksArrived(args);
    await userEvent.click(pay());
    const barclays = await tile('Barclays');
    await waitFor(() => expect(canvasElement.querySelectorAll('ul img')).toHaveLength(0));
    await expect(barclays.querySelector('[data-initials]')).toHaveAttribute('data-initials', 'B');
    await expect(barclays).toHaveAccessibleName('Barclays');
  },
};

export const PseudoLocale: Story = {
  name: 'Pseudo-locale (every message replaced)',
  args: { messages: PSEUDO_MESSAGES },
  parameters: {
    docs: {
      description: {
        story:
          'Each message is replaced by its key: any English left on screen (or in a label) ' +
          'would be a string that escaped the messages table.',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const { canvas } = partsOf(canvasElement);
    await banksArrived(args);
    await userEvent.click(canvas.getByRole('button', { name: /⟦payLabel⟧/ }));
    await canvas.findByRole('region', { name: '⟦chooseBank⟧' });
    const names = ['Barclays', 'HSBC UK', 'Lloyds Bank', 'Monzo', 'NatWest', 'Nationwide'];
    await expect(englishLeftIn(rootOf(canvasElement), names)).toBe('');
  },
};

export const PhoneWidth: Story = {
  name: 'Phone width (390 px): one column, names at most two lines',
  args: { backendBanks: 'sixty-four' },
  parameters: { frame: 'phone' },
  globals: { viewport: { value: 'phone', isRotated: false } },
  play: async ({ args, canvasElement }) => {
    const { pay } = partsOf(canvasElement);
    // The story's viewport global: the test run and the catalogue both show it at 390 px.
    await expect(innerWidth).toBe(390);
    await banksArrived(args);
    await userEvent.click(pay());
    await waitFor(() => expect(canvasElement.querySelectorAll('ul button')).toHaveLength(64));
    const rows = [...canvasElement.querySelectorAll<HTMLElement>('ul button')].map((button) => {
      const name = button.querySelector<HTMLElement>('[title]')!;
      const lines =
        name.getBoundingClientRect().height / parseFloat(getComputedStyle(name).lineHeight);
      return { left: button.offsetLeft, height: button.offsetHeight, lines: Math.round(lines) };
    });
    await expect(new Set(rows.map((r) => r.left)).size).toBe(1);
    await expect(new Set(rows.map((r) => r.height)).size).toBe(1);
    await expect(Math.max(...rows.map((r) => r.lines))).toBeLessThanOrEqual(2);
  },
};

const WIDE_CSS = '.wide-checkout { --service-max-width: 720px; }';

export const WideGrid: Story = {
  name: 'Wide component: a grid, arrows by row and column',
  args: { className: 'wide-checkout', backendBanks: 'six' },
  parameters: { frame: 'wide' },
  decorators: [
    (Story) => (
      <>
        <style>{WIDE_CSS}</style>
        <Story />
      </>
    ),
  ],
  play: async ({ args, canvasElement }) => {
    const { pay, tile } = partsOf(canvasElement);
    await banksArrived(args);
    await userEvent.click(pay());
    const barclays = await tile('Barclays');
    await waitFor(() => expect(barclays).toHaveFocus());
    const box = () => document.activeElement!.getBoundingClientRect();
    const first = box();
    await userEvent.keyboard('{ArrowRight}');
    await expect(await tile('HSBC UK')).toHaveFocus();
    // On a phone's screen the component is narrow again: a list, where ArrowRight goes down.
    if (canvasElement.getBoundingClientRect().width > 480) {
      await expect(box().top).toBe(first.top);
    }
    await userEvent.keyboard('{End}');
    await expect(await tile('Nationwide')).toHaveFocus();
    await userEvent.keyboard('{Home}');
    await expect(barclays).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await expect(pay()).toHaveFocus();
    // Open again, for the picture: the grid, focus on its first bank.
    await userEvent.keyboard('{Enter}');
    await waitFor(async () => expect(await tile('Barclays')).toHaveFocus());
  },
};

export const FailedLoadThenTryAgain: Story = {
  name: 'Failed load: Try again is the primary action',
  args: { backendInstitutions: 'fail' },
  play: async ({ canvasElement }) => {
    const { canvas } = partsOf(canvasElement);
    const retry = await canvas.findByRole('button', { name: 'Try again' }, BACKEND_WAIT);
    await expect(retry).toHaveClass('service-pay');
    await expect(canvas.getByRole('alert')).toHaveTextContent(DEFAULT_MESSAGES.loadFailed);
    await expect(developerTextIn(canvasElement)).toBeUndefined();
  },
};
