import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { ServicePay } from 'servicepay';
import { HANDOFF_MEDIA } from 'servicepay/core';
import { extras } from 'servicepay/extras';
import cy from 'servicepay/locales/cy';
import en from 'servicepay/locales/en';
import { englishWordsIn } from '../test/helpers/shopper-text';
import { servicePayArgs, servicePayArgTypes } from './support/meta';
import type { ServicePayStoryArgs } from './support/meta';
import { BANKS, MANY_BANKS } from './support/banks';
import { BACKEND_WAIT, banksArrived, rootOf } from './support/play';
import { fakeBackendLoader, withFakeBackend } from './support/with-fake-backend';

// The component in Welsh (`locale={cy}`, docs/languages.md), each story checked by axe in light
// and dark (.storybook/vitest.setup.ts), at the catalogue's width and at a phone's. The
// `locale` control switches the language of the mounted component: the step stays open.

const W = cy.pay;
/** The banks' names are their own: taken out before looking for English words. */
const NAMES = [...BANKS, ...MANY_BANKS].map((bank) => bank.name);

const meta = {
  title: 'ServicePay/Languages',
  component: ServicePay,
  tags: ['autodocs'],
  loaders: [fakeBackendLoader],
  decorators: [withFakeBackend],
  args: { ...servicePayArgs, locale: cy },
  argTypes: {
    ...servicePayArgTypes,
    locale: {
      control: 'inline-radio',
      options: ['cy', 'en'],
      mapping: { cy, en },
      description: 'The shopper’s language: a catalogue (`servicepay/locales/cy`, `…/en`).',
    },
  },
  parameters: {
    docs: {
      description: {
        component:
          'Every word from the catalogue given as `locale` (here Welsh, `servicepay/locales/cy`), ' +
          'the root marked `lang="cy"`, the amount and counts written as the language writes ' +
          'them. The bank names stay as the banks write them. Switch `locale` in the controls: ' +
          'the words change in place, the bank step stays open.',
      },
    },
  },
} satisfies Meta<ServicePayStoryArgs>;

export default meta;
type Story = StoryObj<ServicePayStoryArgs>;

/** Pay in Welsh, the step opened, its banks shown. */
async function openStep(args: ServicePayStoryArgs, canvasElement: HTMLElement) {
  const canvas = within(rootOf(canvasElement));
  await banksArrived(args);
  await userEvent.click(canvas.getByRole('button', { name: `${W.payLabel}12.50` }));
  await canvas.findByRole('region', { name: W.chooseBank }, BACKEND_WAIT);
  return canvas;
}

/** No English word in the component, and its root marked Welsh. */
async function allWelsh(canvasElement: HTMLElement) {
  await expect(rootOf(canvasElement)).toHaveAttribute('lang', 'cy');
  await expect(englishWordsIn(canvasElement, NAMES)).toEqual([]);
}

/** A play: the step opened in Welsh, what the story `shows` in it, and no English word. */
const stepInWelsh =
  (shows: (canvas: Awaited<ReturnType<typeof openStep>>) => unknown): Story['play'] =>
  async ({ args, canvasElement }) => {
    await shows(await openStep(args, canvasElement));
    await allWelsh(canvasElement);
  };

export const Welsh: Story = {
  name: 'Welsh: the bank step',
  play: stepInWelsh((canvas) =>
    expect(canvas.getByRole('button', { name: W.close })).toBeVisible(),
  ),
};

export const WelshLongList: Story = {
  name: 'Welsh: a long list, with its search',
  args: { backendBanks: 'sixty-four' },
  play: stepInWelsh((canvas) =>
    expect(canvas.getByRole('searchbox', { name: W.search })).toBeVisible(),
  ),
};

export const WelshPhone: Story = {
  name: 'Welsh at phone width (390 px)',
  parameters: { frame: 'phone' },
  globals: { viewport: { value: 'phone', isRotated: false } },
  play: stepInWelsh(() => expect(innerWidth).toBe(390)),
};

export const WelshLoadFailed: Story = {
  name: 'Welsh: the banks could not be loaded',
  args: { backendInstitutions: 'fail' },
  play: async ({ canvasElement }) => {
    const canvas = within(rootOf(canvasElement));
    await canvas.findByText(W.loadFailed, {}, BACKEND_WAIT);
    await expect(canvas.getByRole('alert')).toHaveTextContent(W.loadFailed);
    await expect(canvas.getByRole('button', { name: W.retry })).toBeVisible();
    await allWelsh(canvasElement);
  },
};

export const WelshInvalidPayment: Story = {
  name: 'Welsh: a payment that cannot be made',
  args: { payment: { amount: -1, paymentReference: 'ORDER-1042' } },
  play: async ({ canvasElement }) => {
    const canvas = within(rootOf(canvasElement));
    await expect(await canvas.findByText(W.paymentInvalid)).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Talu' })).toBeDisabled();
    await allWelsh(canvasElement);
  },
};

export const WelshOpeningBank: Story = {
  name: 'Welsh: opening a bank',
  args: { backendPayment: 'never-answers' },
  play: stepInWelsh(async (canvas) => {
    await userEvent.click(canvas.getByRole('button', { name: 'HSBC UK' }));
    await expect(canvas.getByRole('button', { name: W.opening('HSBC UK') })).toBeVisible();
  }),
};

/** Answers the stories' status endpoint (polling: no event stream) with PENDING. */
function pendingStatusEndpoint() {
  const real = window.fetch;
  const realEventSource = window.EventSource;
  window.fetch = (input, init) =>
    String(input).includes('/story/payments/status')
      ? Promise.resolve(Response.json({ status: 'PENDING' }))
      : real(input, init);
  // @ts-expect-error -- taken away for the story, put back after it
  delete window.EventSource;
  return () => {
    window.fetch = real;
    window.EventSource = realEventSource;
  };
}

export const WelshHandoff: Story = {
  name: 'Welsh: scan with your phone',
  args: { extras, statusUrl: '/story/payments/status' },
  beforeEach: pendingStatusEndpoint,
  play: async ({ args, canvasElement }) => {
    const canvas = await openStep(args, canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Monzo' }));
    // A desktop only: a touch screen or a narrow viewport opens the bank instead.
    if (!matchMedia(HANDOFF_MEDIA).matches) return;
    const panel = await canvas.findByRole('region', { name: cy.handoff.handoffHeading });
    await expect(panel).toHaveAttribute('lang', 'cy');
    await expect(
      await within(panel).findByRole('img', { name: cy.handoff.qrAlt('Monzo') }),
    ).toBeVisible();
    const address = within(panel).getByText(/^https?:/).textContent!;
    await expect(englishWordsIn(canvasElement, [...NAMES, address])).toEqual([]);
  },
};
