import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ServicePay } from 'servicepay/hosted';
import type { HostedServicePayProps } from 'servicepay/hosted';
import { DEFAULT_HOSTED_MESSAGES } from 'servicepay/core';
import cy from 'servicepay/locales/cy';
// The recording window.Service of the tests (test/e2e/hosted): a second implementation of the
// service's script, with markup of its own, served here from a Blob.
import recordingService from '../test/e2e/hosted/recording-service.js?raw';

const script = (source: string) =>
  URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
/** A script that loads and defines window.Service. */
const READY_SRC = script(recordingService);
/** An address whose request fails, as a script host that is down. */
const FAILING_SRC = script('');
URL.revokeObjectURL(FAILING_SRC);
/** An address this catalogue never requests (see `holdScript`): the script is still loading. */
const LOADING_SRC = 'https://script-host.example/Service-0.9.3.min.js';

/** Keeps the LOADING_SRC tag out of the page for one story, so that it never loads. */
function holdScript() {
  const append = document.head.append;
  document.head.append = function (...nodes) {
    const held = nodes.filter((n) => n instanceof HTMLScriptElement && n.src == LOADING_SRC);
    append.apply(
      this,
      nodes.filter((n) => !held.includes(n)),
    );
  };
  return () => {
    document.head.append = append;
  };
}

const meta = {
  title: 'ServicePay/On the service’s script (hosted)',
  component: ServicePay,
  args: {
    scriptSrc: READY_SRC,
    environment: 'SANDBOX',
    applicationId: '3f2a1d4e-5b6c-4d7e-8f90-a1b2c3d4e5f6',
    payment: { amount: 12.5, paymentReference: 'ORDER-1042' },
  },
  parameters: {
    docs: {
      description: {
        component:
          '`<ServicePay>` from `servicepay/hosted` renders the service’s own component from ' +
          'its script (docs/going-live.md). Here the script is a stand-in written for the ' +
          'tests, with markup of its own: what matters is the wrapper’s place-holder while ' +
          'the script loads and its words when it cannot.',
      },
    },
  },
} satisfies Meta<HostedServicePayProps>;

export default meta;
type Story = StoryObj<HostedServicePayProps>;

export const Loading: Story = {
  name: 'Script loading',
  args: { scriptSrc: LOADING_SRC },
  beforeEach: holdScript,
  parameters: {
    docs: {
      description: {
        story:
          'The Pay step’s place while the script loads (and in the server’s markup): title, ' +
          'label and a disabled Pay with the amount, so nothing jumps when it is ready.',
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('Pay with your banking app')).toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: 'Pay £12.50' })).toBeDisabled();
    await expect(canvasElement.querySelector('[data-servicepay-hosted]')).toHaveAttribute(
      'data-servicepay-hosted',
      'loading',
    );
  },
};

export const Ready: Story = {
  name: 'Script ready',
  parameters: {
    docs: { description: { story: 'The service’s component, injected once into its element.' } },
  },
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelectorAll('[data-recording]')).toHaveLength(1));
    await expect(within(canvasElement).getByRole('button', { name: 'Pay £12.50' })).toBeEnabled();
  },
};

export const Failed: Story = {
  name: 'Script failed to load',
  args: { scriptSrc: FAILING_SRC },
  parameters: {
    docs: {
      description: {
        story:
          'Plain words and **Try again**, which requests the script once more; `errorConsumer` ' +
          'gets `servicepay: could not load the service’s script from <src>: <cause>`.',
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() =>
      expect(canvas.getByRole('alert')).toHaveTextContent(DEFAULT_HOSTED_MESSAGES.loadFailed),
    );
    const again = canvas.getByRole('button', { name: 'Try again' });
    await userEvent.click(again);
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Try again' })).toBeEnabled());
  },
};

export const WelshLoading: Story = {
  name: 'In Welsh: script loading',
  args: { scriptSrc: LOADING_SRC, locale: cy },
  beforeEach: holdScript,
  parameters: {
    docs: {
      description: {
        story:
          'With `locale={cy}` the wrapper’s own words are Welsh, marked `lang="cy"`; the ' +
          'service’s component, once loaded, keeps its own (`title`, `label` and `payLabel` ' +
          'change them).',
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText(cy.pay.title)).toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: 'Talu £12.50' })).toBeDisabled();
    await expect(canvasElement.querySelector('.servicepay-placeholder')).toHaveAttribute(
      'lang',
      'cy',
    );
  },
};

export const WelshFailed: Story = {
  name: 'In Welsh: script failed to load',
  args: { scriptSrc: FAILING_SRC, locale: cy },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvas.getByRole('alert')).toHaveTextContent(cy.hosted.loadFailed));
    await expect(canvas.getByRole('button', { name: cy.hosted.retry })).toBeEnabled();
    await expect(canvas.getByRole('alert').parentElement).toHaveAttribute('lang', 'cy');
  },
};
