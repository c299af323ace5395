/**
 * The component on both of its renderers, behind one driver: React's `<ServicePay>` and the
 * Preact build that `window.Service` ships (test/vanilla/support.ts). A behaviour test written
 * against `Renderer` runs on both with `describe.each(RENDERERS)('$name', …)`: it mounts with
 * the merchant's options, reads what the page shows through `screen` (both render into the
 * document), clicks and types with `user`, and calls the merchant's handle with `call`.
 */
import { act } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserEvent } from '@testing-library/user-event';
import type { Mock } from 'vitest';
import { onTestFinished, vi } from 'vitest';
import type { ServicePayHandle, ServicePayProps } from '../../src/react/index';
import type { ServiceOptions } from '../../src/vanilla/index';
import { renderServicePay } from '../react/render';
import { loadVanilla } from '../vanilla/support';
import { createEventLog } from './event-log';
import { APP_ID } from './merchant';

/**
 * The merchant's options: `<ServicePay>`'s props. `payment` is given to the Service class with
 * `createPayment` before `injectComponent`; `extras` is React's way in to the extras, which the
 * class loads itself when its options ask for them, so the Preact driver leaves it out.
 */
export type MountOptions = Partial<ServicePayProps>;

export interface Mounted {
  /** What the merchant's callbacks heard, in order (test/helpers/event-log). */
  log: ReturnType<typeof createEventLog>;
  errorConsumer: Mock;
  /** Where the component would have sent the shopper (the spy given as `openUrl`). */
  openUrl: Mock;
  /** The page element the component renders into. */
  container: HTMLElement;
  user: UserEvent;
  /** Calls the merchant's handle: React's ref (inside act), or the Service instance itself. */
  call<T>(step: (handle: ServicePayHandle) => T): Promise<Awaited<T>>;
  /** Takes the component out of the page: React's unmount, Service's destroy(). */
  remove(): void;
}

export interface Renderer {
  name: string;
  /** Whatever the first mount would wait for (the Preact build is bundled once per worker). */
  prepare(): Promise<unknown>;
  mount(options?: MountOptions): Promise<Mounted>;
}

const react: Renderer = {
  name: 'React <ServicePay>',
  prepare: async () => undefined,
  async mount(options = {}) {
    const view = renderServicePay(options);
    return {
      log: view.log,
      errorConsumer: view.errorConsumer,
      openUrl: view.openUrl,
      container: view.container,
      user: view.user,
      async call(step) {
        let result: unknown;
        await act(async () => {
          result = await step(view.ref.current!);
        });
        return result as never;
      },
      remove: () => act(() => view.unmount()),
    };
  },
};

/** The Preact build alone, for what only window.Service has. */
export const PREACT: Renderer = {
  name: 'Preact window.Service',
  prepare: loadVanilla,
  async mount(options = {}) {
    const { Service } = await loadVanilla();
    const log = createEventLog();
    const openUrl = vi.fn();
    const { payment, ...rest } = options;
    delete rest.extras;
    const service = new Service({
      environment: 'SANDBOX',
      applicationId: APP_ID,
      eventConsumer: log.eventConsumer,
      errorConsumer: log.errorConsumer,
      openUrl,
      ...(rest as Partial<ServiceOptions>),
    });
    service.createPayment(payment ?? { amount: 12.5, paymentReference: 'ORDER-1042' });
    const container = document.createElement('div');
    container.id = `service-${Math.random().toString(36).slice(2)}`;
    document.body.append(container);
    service.injectComponent(container.id);
    onTestFinished(() => {
      service.destroy();
      container.remove();
    });
    return {
      log,
      errorConsumer: log.errorConsumer,
      openUrl,
      container,
      user: userEvent.setup(),
      call: async (step) => step(service) as never,
      remove: () => service.destroy(),
    };
  },
};

/** React first, then the Preact build: `describe.each(RENDERERS)('$name', (renderer) => …)`. */
export const RENDERERS: Renderer[] = [react, PREACT];
