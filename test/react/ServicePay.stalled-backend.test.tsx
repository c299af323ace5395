// A backend that sends its headers and then stalls (issue 14, finding 4), driven through
// <ServicePay> with the real fetch against a real node:http server: the component reaches
// its error state, the shopper can try again, and unmounting closes the connection.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../src/react/index';
import type { ServicePayProps } from '../../src/react/index';
import { defaultInitiatedPayment } from '../helpers/fake-transport';
import { startStallingBackend } from '../helpers/stalling-backend';
import type { Behaviour, StallingBackend } from '../helpers/stalling-backend';
import { renderServicePay } from './render';
import { RENDERERS } from '../helpers/renderers';
import { OPENED_IDS } from '../helpers/opened-ids';

const TIMEOUT = 1000;
/** Long enough for a timeout of TIMEOUT ms on a busy machine; not a timing assertion. */
const WAIT = { timeout: 5000 };

let backend: StallingBackend | undefined;
afterEach(async () => {
  await backend?.close();
  backend = undefined;
});

async function setup(
  plan: (request: { method: string; path: string; index: number }) => Behaviour,
  props: (url: string) => Partial<ServicePayProps> = () => ({}),
) {
  backend = await startStallingBackend(plan);
  const transport = createHttpTransport({ baseUrl: backend.url, timeoutMs: TIMEOUT });
  return { ...renderServicePay({ transport, ...props(backend.url) }), backend };
}

const payments = (b: StallingBackend) => b.requests.filter((r) => r.method === 'POST');
const bankLists = (b: StallingBackend) => b.requests.filter((r) => r.method === 'GET');
const root = (container: HTMLElement) => container.firstElementChild!;

describe('<ServicePay> with a backend that stalls after its headers', () => {
  it('a stalled payment ends in an error; a second click sends a new request and pays', async () => {
    const { backend, container, errorConsumer, openUrl, user } = await setup(
      ({ method }) => (method === 'POST' && payments(backend!).length === 1 ? 'stall' : 'answer'),
      // Only the payments under test have the short timeout; the bank list (the first request
      // of a fresh test worker, slow on a busy machine) has the default.
      (baseUrl) => ({
        transport: {
          fetchInstitutions: createHttpTransport({ baseUrl }).fetchInstitutions,
          initiatePayment: createHttpTransport({ baseUrl, timeoutMs: TIMEOUT }).initiatePayment,
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    await user.click(await screen.findByRole('button', { name: 'Monzo' }));
    expect(root(container)).toHaveAttribute('data-state', 'initiating');

    await waitFor(() => expect(screen.getByRole('alert')).not.toBeEmptyDOMElement(), WAIT);
    expect(errorConsumer.mock.calls).toEqual([
      [
        {
          location: 'payWithBankInstitution',
          error: `The service did not answer within ${TIMEOUT} ms`,
        },
      ],
    ]);
    expect(root(container)).not.toHaveAttribute('data-state', 'initiating');
    const monzo = screen.getByRole('button', { name: 'Monzo' });
    expect(monzo).not.toHaveAttribute('aria-disabled');
    await waitFor(() => expect(payments(backend)[0]!.wasCutOff).toBe(true));

    await user.click(monzo);
    await waitFor(() => expect(openUrl).toHaveBeenCalledTimes(1), WAIT);
    expect(openUrl).toHaveBeenCalledWith(defaultInitiatedPayment(1).authorisationUrl, OPENED_IDS);
    expect(payments(backend)).toHaveLength(2);
    const [first, second] = payments(backend).map((r) => JSON.parse(r.body) as object);
    expect(second).toMatchObject({ institutionId: 'ob-monzo' });
    // The stalled payment's id is spent (spec 4.4 rule 4): the retry is a new payment.
    expect(second).not.toMatchObject({
      merchantPaymentId: (first as { merchantPaymentId: string }).merchantPaymentId,
    });
    expect(errorConsumer).toHaveBeenCalledTimes(1);
  });

  it('a stalled bank list ends in an error with Try again, which fetches again', async () => {
    const { backend, container, errorConsumer, user } = await setup(({ index }) =>
      index === 0 ? 'stall' : 'answer',
    );
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    expect(root(container)).toHaveAttribute('data-state', 'loading');

    const retry = await screen.findByRole('button', { name: 'Try again' }, WAIT);
    expect(root(container)).toHaveAttribute('data-state', 'error');
    expect(errorConsumer.mock.calls).toEqual([
      [
        {
          location: 'fetchInstitutions',
          error: `The service did not answer within ${TIMEOUT} ms`,
        },
      ],
    ]);
    await bankLists(backend)[0]!.cutOff;

    await user.click(retry);
    expect(await screen.findByRole('button', { name: 'Monzo' }, WAIT)).toBeInTheDocument();
    expect(bankLists(backend)).toHaveLength(2);
    expect(errorConsumer).toHaveBeenCalledTimes(1);
  });
});

// Taken out of the page mid-call, on both renderers (test/helpers/renderers.tsx): React's
// unmount, and destroy() of the Preact build's window.Service. The component's own HTTP
// transport (its default timeout, 30 s): only taking it out ends a call.
describe.each(RENDERERS)('$name with a backend that stalls after its headers', (renderer) => {
  beforeAll(() => renderer.prepare(), 60_000);
  async function mount(plan: (request: { method: string }) => Behaviour) {
    backend = await startStallingBackend(plan);
    return { ...(await renderer.mount({ baseUrl: backend.url })), backend };
  }

  it('taken out during a stalled bank list: the connection is closed', async () => {
    const { backend, remove, errorConsumer } = await mount(() => 'stall');
    await waitFor(() => expect(bankLists(backend)).toHaveLength(1));
    expect(bankLists(backend)[0]!.wasCutOff).toBe(false);

    remove();

    await bankLists(backend)[0]!.cutOff;
    expect(errorConsumer).not.toHaveBeenCalled();
  });

  it('taken out during a stalled payment: the connection is closed, nothing opens, nothing is reported', async () => {
    const { backend, remove, container, errorConsumer, openUrl, user } = await mount(
      ({ method }) => (method === 'POST' ? 'stall' : 'answer'),
    );
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    await user.click(await screen.findByRole('button', { name: 'Monzo' }));
    await waitFor(() => expect(payments(backend)).toHaveLength(1));
    expect(payments(backend)[0]!.wasCutOff).toBe(false);

    remove();

    await payments(backend)[0]!.cutOff;
    expect(container).toBeEmptyDOMElement();
    expect(openUrl).not.toHaveBeenCalled();
    expect(errorConsumer).not.toHaveBeenCalled();
  });
});
