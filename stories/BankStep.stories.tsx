import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { ServicePay } from 'servicepay';
import { HANDOFF_MEDIA } from 'servicepay/core';
import type { PaymentStatus } from 'servicepay/core';
import { extras } from 'servicepay/extras';
import { servicePayArgs, servicePayArgTypes } from './support/meta';
import type { ServicePayStoryArgs } from './support/meta';
import { BACKEND_WAIT, banksArrived, errorsOf, partsOf } from './support/play';
import { fakeBackendLoader, withFakeBackend } from './support/with-fake-backend';

// The bank step's extras (servicepay/extras, docs/handoff.md) and the unavailable bank. The
// handoff's status endpoint is this catalogue's own fake: `fetch` answers it (below), and the
// stream is off, so the panel polls it as it would behind a proxy that buffers streams.

/** Where the stories' status endpoint is "mounted". */
const STATUS_URL = '/story/payments/status';
/** What the fake status endpoint answers, by story (set in `beforeEach`). */
let statusAnswer: PaymentStatus = 'PENDING';

/** Answers the status endpoint's address; everything else goes to the real fetch. */
function fakeStatusEndpoint(answer: typeof statusAnswer) {
  statusAnswer = answer;
  const real = window.fetch;
  const realEventSource = window.EventSource;
  window.fetch = (input, init) =>
    String(input).includes(STATUS_URL)
      ? Promise.resolve(Response.json({ status: statusAnswer }))
      : real(input, init);
  // Polling only: the fake endpoint is a fetch, not an event stream.
  // @ts-expect-error -- taken away for the story, put back after it
  delete window.EventSource;
  return () => {
    window.fetch = real;
    window.EventSource = realEventSource;
  };
}

const meta = {
  title: 'ServicePay/Bank step',
  component: ServicePay,
  tags: ['autodocs'],
  loaders: [fakeBackendLoader],
  decorators: [withFakeBackend],
  args: servicePayArgs,
  argTypes: { ...servicePayArgTypes, extras: { control: false } },
  beforeEach: () => {
    localStorage.removeItem('servicepay:bank');
  },
  parameters: {
    docs: {
      description: {
        component:
          'The bank step with its opt-in extras (`extras` from `servicepay/extras`): the ' +
          'remembered bank, featured banks and, on a desktop with a status endpoint, “Scan ' +
          'with your phone”. A bank the backend marks unavailable is shown greyed out and ' +
          'cannot be chosen (docs/handoff.md).',
      },
    },
  },
} satisfies Meta<ServicePayStoryArgs>;

export default meta;
type Story = StoryObj<ServicePayStoryArgs>;

export const UnavailableBank: Story = {
  name: 'An unavailable bank',
  args: { backendBanks: 'one-unavailable' },
  parameters: {
    docs: {
      description: {
        story:
          'HSBC UK is down: a disabled button with “Unavailable right now”, skipped by the ' +
          'arrow keys; the ref handle’s payWithInstitution on it reports an error and opens ' +
          'nothing.',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const { canvas, pay } = partsOf(canvasElement);
    await banksArrived(args);
    await userEvent.click(pay());
    const hsbc = await canvas.findByRole('button', { name: /HSBC UK/ });
    await expect(hsbc).toBeDisabled();
    await expect(hsbc).toHaveTextContent('Unavailable right now');
    // From Barclays, the arrow goes past HSBC UK to Lloyds Bank.
    canvas.getByRole('button', { name: 'Barclays' }).focus();
    await userEvent.keyboard('{ArrowDown}');
    await expect(canvas.getByRole('button', { name: 'Lloyds Bank' })).toHaveFocus();
    await expect(errorsOf(args)).toEqual([]);
  },
};

export const FeaturedBanks: Story = {
  name: 'Featured banks',
  args: { extras, featuredInstitutions: ['ob-monzo', 'ob-barclays', 'ob-unknown'] },
  parameters: {
    docs: {
      description: {
        story:
          '`featuredInstitutions`: a “Popular banks” list above the full list, in the order ' +
          'given; unknown ids are skipped.',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const { canvas, pay } = partsOf(canvasElement);
    await banksArrived(args);
    await userEvent.click(pay());
    const popular = await canvas.findByRole('list', { name: 'Popular banks' }, BACKEND_WAIT);
    await expect(
      within(popular)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Monzo', 'Barclays']);
    await expect(
      within(canvas.getByRole('list', { name: 'Banks' })).getAllByRole('button'),
    ).toHaveLength(6);
  },
};

export const RememberedBank: Story = {
  name: 'Remembered bank',
  args: { extras, rememberBank: true, featuredInstitutions: ['ob-barclays'] },
  beforeEach: () => {
    localStorage.setItem('servicepay:bank', 'ob-monzo');
  },
  parameters: {
    docs: {
      description: {
        story:
          '`rememberBank`: the bank last paid with on this device comes first, in “Last used”, ' +
          'with “Forget this bank” beside it (only its id is stored, in localStorage).',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const { canvas, pay } = partsOf(canvasElement);
    await banksArrived(args);
    await userEvent.click(pay());
    const last = await canvas.findByRole('list', { name: 'Last used' }, BACKEND_WAIT);
    await expect(within(last).getByRole('button', { name: 'Monzo' })).toBeInTheDocument();
    await userEvent.click(canvas.getByRole('button', { name: 'Forget this bank' }));
    await expect(canvas.queryByRole('list', { name: 'Last used' })).not.toBeInTheDocument();
    await expect(localStorage.getItem('servicepay:bank')).toBeNull();
    await expect(canvas.getByText('We won’t remember your bank.')).toBeInTheDocument();
  },
};

/** The handoff stories: a desktop (the catalogue's browser), a status endpoint, the extras. */
const handoffStory = (
  answer: typeof statusAnswer,
  story: string,
  more: Partial<ServicePayStoryArgs> = {},
): Story => ({
  args: { extras, statusUrl: STATUS_URL, ...more },
  beforeEach: () => fakeStatusEndpoint(answer),
  parameters: { docs: { description: { story } } },
});

/**
 * Pay, then a bank; true when the catalogue's browser is a desktop, where the handoff panel
 * takes the place of the bank's page (a touch screen or a narrow viewport opens the bank).
 */
async function chooseOnDesktop(
  args: ServicePayStoryArgs,
  canvasElement: HTMLElement,
  bank: string,
): Promise<boolean> {
  const { canvas, pay } = partsOf(canvasElement);
  await banksArrived(args);
  await userEvent.click(pay());
  await userEvent.click(await canvas.findByRole('button', { name: bank }));
  return window.matchMedia(HANDOFF_MEDIA).matches;
}

export const ScanWithYourPhone: Story = {
  ...handoffStory(
    'PENDING',
    'On a desktop with `statusUrl`, choosing a bank shows its address as a QR code for the ' +
      'shopper’s phone, the address as text, and “Continue on this computer”; the page ' +
      'waits for the outcome.',
  ),
  name: 'Scan with your phone',
  play: async ({ args, canvasElement }) => {
    if (!(await chooseOnDesktop(args, canvasElement, 'Monzo'))) return;
    const { canvas } = partsOf(canvasElement);
    await canvas.findByRole('heading', { name: 'Scan with your phone' }, BACKEND_WAIT);
    await expect(await canvas.findByRole('img', { name: /Monzo/ })).toBeInTheDocument();
    await expect(args.openUrl).not.toHaveBeenCalled();
    await userEvent.click(canvas.getByRole('button', { name: 'Continue on this computer' }));
    await expect(args.openUrl).toHaveBeenCalledTimes(1);
  },
};

export const HandoffReceived: Story = {
  ...handoffStory(
    'COMPLETED',
    'The status endpoint says COMPLETED: “Payment received”, in place, without a reload.',
  ),
  name: 'Handoff: payment received',
  play: async ({ args, canvasElement }) => {
    if (!(await chooseOnDesktop(args, canvasElement, 'Barclays'))) return;
    const { canvas } = partsOf(canvasElement);
    await waitFor(
      () => expect(canvas.getByRole('heading', { name: 'Payment received' })).toBeInTheDocument(),
      BACKEND_WAIT,
    );
  },
};

export const HandoffNotCompleted: Story = {
  ...handoffStory(
    'FAILED',
    'The status endpoint says FAILED: “Payment not completed”, and Try again reopens the ' +
      'bank step.',
  ),
  name: 'Handoff: not completed',
  play: async ({ args, canvasElement }) => {
    if (!(await chooseOnDesktop(args, canvasElement, 'Barclays'))) return;
    const { canvas } = partsOf(canvasElement);
    await canvas.findByRole('heading', { name: 'Payment not completed' }, BACKEND_WAIT);
    await userEvent.click(canvas.getByRole('button', { name: 'Try again' }));
    await expect(await canvas.findByRole('list', { name: 'Banks' })).toBeInTheDocument();
  },
};

export const HandoffNeedsReview: Story = {
  ...handoffStory(
    'NEEDS_REVIEW',
    'The status endpoint says NEEDS_REVIEW (the bank reported the payment, but it does not ' +
      'match its order): “We need to check this payment”, the shop will be in touch, with ' +
      'its own contact (`reviewContact`); nothing to press, and no Pay to pay twice.',
    { reviewContact: 'Questions? Call us on 020 7946 0000, 9am to 5pm.', onResult: fn() },
  ),
  name: 'Handoff: needs review',
  play: async ({ args, canvasElement }) => {
    if (!(await chooseOnDesktop(args, canvasElement, 'Barclays'))) return;
    const { canvas } = partsOf(canvasElement);
    await canvas.findByRole('heading', { name: 'We need to check this payment' }, BACKEND_WAIT);
    await expect(canvas.getByText(args.reviewContact!)).toBeInTheDocument();
    await expect(canvas.queryByRole('button', { name: 'Continue on this computer' })).toBeNull();
    await expect(args.onResult).toHaveBeenCalledTimes(1);
  },
};
