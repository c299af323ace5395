import { fn } from 'storybook/test';
import type { ArgTypes } from '@storybook/react-vite';
import type { ServicePayProps } from 'servicepay';
import { APP_ID, ORDER } from './play';
import { fakeBackendArgs, fakeBackendArgTypes } from './with-fake-backend';
import type { FakeBackendArgs } from './with-fake-backend';

export type ServicePayStoryArgs = ServicePayProps & FakeBackendArgs;

/** A sandbox merchant with an order prepared; every callback is a spy shown in the actions panel. */
export const servicePayArgs = {
  environment: 'SANDBOX',
  applicationId: APP_ID,
  payment: ORDER,
  eventConsumer: fn(),
  errorConsumer: fn(),
  // A spy: the story never navigates away to the bank.
  openUrl: fn(),
  onPaymentInitiated: fn(),
  ...fakeBackendArgs,
} satisfies ServicePayStoryArgs;

export const servicePayArgTypes: Partial<ArgTypes<ServicePayStoryArgs>> = {
  environment: { control: 'inline-radio' },
  agentType: { control: 'inline-radio' },
  payment: { control: 'object' },
  // The stories pass their fake backend as the transport.
  transport: { control: false },
  eventConsumer: { control: false },
  errorConsumer: { control: false },
  openUrl: { control: false },
  onPaymentInitiated: { control: false },
  generateMerchantPaymentId: { control: false },
  ...fakeBackendArgTypes,
};
