// Finding 8 through window.Service (the Preact build, support.ts): a transport answering
// 100,000 banks. The step renders at most 200 with the hint, errorConsumer hears once, and
// the search finds a bank far past the rendered ones and pays there.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFakeTransport } from '../helpers/fake-transport';
import { APP_ID } from '../react/support';
import { loadVanilla } from './support';
import type { VanillaModule } from './support';

let vanilla: VanillaModule;
beforeAll(async () => {
  vanilla = await loadVanilla();
});
afterEach(() => {
  document.body.replaceChildren();
});

const tiles = () =>
  within(screen.getByRole('list', { name: 'Banks' }))
    .getAllByRole('button')
    .map((tile) => tile.textContent);

describe('Service with a transport answering 100,000 banks', () => {
  it('renders 200 with a hint, reports once; search finds and pays the 99,999th', async () => {
    const transport = createFakeTransport({
      institutions: Array.from({ length: 100_000 }, (_, i) => ({
        id: `ob-${i + 1}`,
        name: `Bank ${i + 1}`,
      })),
    });
    const errorConsumer = vi.fn();
    const openUrl = vi.fn();
    const service = new vanilla.Service({
      environment: 'SANDBOX',
      applicationId: APP_ID,
      transport,
      errorConsumer,
      openUrl,
    });
    service.createPayment({ amount: 12.5, paymentReference: 'ORDER-1042' });
    document.body.append(Object.assign(document.createElement('div'), { id: 'pay' }));
    service.injectComponent('pay');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    await screen.findByRole('list', { name: 'Banks' });

    expect(tiles()).toHaveLength(200);
    expect(
      screen
        .getAllByRole('status')
        .map((status) => status.textContent)
        .filter(Boolean),
    ).toEqual(['Showing 200 of 100000 banks. Type your bank’s name to find it.']);
    expect(errorConsumer).toHaveBeenCalledTimes(1);
    expect(errorConsumer).toHaveBeenCalledWith({
      location: 'fetchInstitutions',
      error: expect.stringMatching(
        /^servicepay: fetchInstitutions answered 100000 banks, /,
      ) as string,
    });

    await user.type(screen.getByRole('searchbox'), 'bank 99999');
    expect(tiles()).toEqual(['Bank 99999']);
    await user.click(screen.getByRole('button', { name: 'Bank 99999' }));
    await waitFor(() => expect(openUrl).toHaveBeenCalledTimes(1));
    expect(transport.paymentRequests.map((r) => r.institutionId)).toEqual(['ob-99999']);
    expect(errorConsumer).toHaveBeenCalledTimes(1);
  }, 120_000);
});
