// The extras in the Service class (servicepay/vanilla), run as the package ships it (the Preact
// build, ./support.ts): the class loads them itself only when its options ask for them
// (`statusUrl`, `rememberBank`, `featuredInstitutions`); a page passes no `extras`. What the
// extras do, and that the class loads them when asked, is in test/react/extras.test.tsx on both
// renderers (test/helpers/renderers.tsx).
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_MESSAGES, HANDOFF_MEDIA } from '../../src/core/index';
import { defaultInitiatedPayment } from '../helpers/fake-transport';
import { OPENED_IDS } from '../helpers/opened-ids';
import { PREACT as preact } from '../helpers/renderers';
import { fakeTransport } from '../react/support';

beforeAll(() => preact.prepare(), 60_000);

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('Service: the extras, loaded by the class itself', () => {
  it('without those options, no extras: the bank opens here even on a desktop', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === HANDOFF_MEDIA }));
    const { user, openUrl } = await preact.mount({ transport: fakeTransport() });
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const banks = await screen.findByRole('list', { name: DEFAULT_MESSAGES.banks });
    expect(screen.getAllByRole('list')).toEqual([banks]);
    await user.click(within(banks).getByRole('button', { name: 'Barclays' }));
    await waitFor(() =>
      expect(openUrl).toHaveBeenCalledWith(defaultInitiatedPayment(1).authorisationUrl, OPENED_IDS),
    );
    expect(localStorage.length).toBe(0);
  });
});
