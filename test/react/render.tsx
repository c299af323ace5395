import { createRef } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { ServicePay } from '../../src/react/index';
import type { ServicePayHandle, ServicePayProps } from '../../src/react/index';
import { createEventLog } from '../helpers/event-log';
import { APP_ID } from './support';

/**
 * `<ServicePay>` as a sandbox merchant renders it, with an order prepared and every callback
 * observed: `log` (test/helpers/event-log) holds events and errors in the order the merchant's
 * callbacks saw them, and each callback is a spy too; `openUrl` is a spy of its own, so the log
 * holds what the component reports, not where it navigates. `props` adds or replaces options (a
 * test's `transport`, mostly); `rerender` renders again with more.
 */
export function renderServicePay(props: Partial<ServicePayProps> = {}) {
  const log = createEventLog();
  const { eventConsumer, errorConsumer } = log;
  const openUrl = vi.fn();
  const ref = createRef<ServicePayHandle>();
  const all: ServicePayProps = {
    environment: 'SANDBOX',
    applicationId: APP_ID,
    payment: { amount: 12.5, paymentReference: 'ORDER-1042' },
    eventConsumer,
    errorConsumer,
    openUrl,
    ...props,
  };
  const view = render(<ServicePay ref={ref} {...all} />);
  const rerender = (more: Partial<ServicePayProps> = {}) =>
    view.rerender(<ServicePay ref={ref} {...all} {...more} />);
  return {
    ...view,
    rerender,
    ref,
    log,
    eventConsumer,
    errorConsumer,
    openUrl,
    user: userEvent.setup(),
  };
}
