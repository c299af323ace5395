// The Service class (Preact build) against a real backend that stalls after its headers
// (issue 14, finding 4): destroyed mid-call, then injected again, it fetches anew. That
// destroy() closes the connections is in test/react/ServicePay.stalled-backend.test.tsx, on both renderers.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStallingBackend } from '../helpers/stalling-backend';
import type { StallingBackend } from '../helpers/stalling-backend';
import { APP_ID } from '../react/support';
import { loadVanilla } from './support';
import type { VanillaModule } from './support';

let vanilla: VanillaModule;
beforeAll(async () => {
  vanilla = await loadVanilla();
});

let backend: StallingBackend | undefined;
afterEach(async () => {
  document.body.replaceChildren();
  await backend?.close();
  backend = undefined;
});

async function inject(stall: (method: string) => boolean) {
  backend = await startStallingBackend(({ method }) => (stall(method) ? 'stall' : 'answer'));
  const errorConsumer = vi.fn();
  const openUrl = vi.fn();
  // The component's own HTTP transport (default timeout, 30 s): only destroy() ends a call.
  const service = new vanilla.Service({
    environment: 'SANDBOX',
    applicationId: APP_ID,
    baseUrl: backend.url,
    errorConsumer,
    openUrl,
  });
  service.createPayment({ amount: 12.5, paymentReference: 'ORDER-1042' });
  const element = document.createElement('div');
  element.id = 'service-component';
  document.body.append(element);
  service.injectComponent('service-component');
  return { service, backend, element, errorConsumer, openUrl };
}

describe('Service.destroy()', () => {
  it('during a stalled bank list: the connection is closed; injected again, it fetches anew', async () => {
    let lists = 0;
    const { service, backend, errorConsumer } = await inject(
      (method) => method === 'GET' && ++lists === 1,
    );
    await waitFor(() => expect(backend.requests).toHaveLength(1));

    service.destroy();
    await backend.requests[0]!.cutOff;

    service.injectComponent('service-component');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    expect(await screen.findByRole('button', { name: 'Monzo' })).toBeInTheDocument();
    expect(backend.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
    expect(errorConsumer).not.toHaveBeenCalled();
  });
});
