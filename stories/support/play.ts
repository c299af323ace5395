import { expect, mocked, waitFor, within } from 'storybook/test';
import type { PaymentArgs, ServiceError, ServiceEventName } from 'servicepay';

/** What every story's merchant passes: the tests' sandbox application and a prepared order. */
export { APP_ID } from '../../test/helpers/merchant';
export const ORDER: PaymentArgs = {
  amount: 12.5,
  paymentReference: 'ORDER-1042',
  metadata: { orderId: '1042', basket: ['tea', 'teapot'] },
};

/** The backend answers after a realistic delay; give it room on a slow machine. */
export const BACKEND_WAIT = { timeout: 5000 };

interface Consumers {
  eventConsumer?: (event: ServiceEventName) => void;
  errorConsumer?: (error: ServiceError) => void;
}

/** The events the merchant's eventConsumer received, in order. */
export function eventsOf(args: Consumers): ServiceEventName[] {
  return mocked(args.eventConsumer!).mock.calls.map(([event]) => event);
}

/** The errors the merchant's errorConsumer received, in order. */
export function errorsOf(args: Consumers): ServiceError[] {
  return mocked(args.errorConsumer!).mock.calls.map(([error]) => error);
}

/** Waits until the bank list has arrived from the fake backend. */
export async function banksArrived(args: Consumers): Promise<void> {
  await waitFor(
    () => expect(args.eventConsumer).toHaveBeenCalledWith('institutions_fetched'),
    BACKEND_WAIT,
  );
}

/** The component's root (it carries `data-state`); the first one in the story. */
export function rootOf(canvasElement: HTMLElement): HTMLElement {
  const root = canvasElement.querySelector<HTMLElement>('[role="group"][data-state]');
  if (!root) throw new Error('stories: no ServicePay root in the canvas');
  return root;
}

/** A whole payment's events, in order (spec 6.2): the list the tests check too. */
export { WHOLE_PAYMENT } from '../../test/helpers/events';

/** Queries within the (first) component, its Pay button, and its bank tiles by name. */
export function partsOf(canvasElement: HTMLElement) {
  const canvas = within(rootOf(canvasElement));
  return {
    canvas,
    pay: () => canvas.getByRole('button', { name: /^Pay\b/ }),
    tile: (name: string) => canvas.findByRole('button', { name }, BACKEND_WAIT),
  };
}
