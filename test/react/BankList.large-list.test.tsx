// A bank list of any size (finding 8 of the fault-testing campaign): a backend or a custom
// transport may answer 100,000 banks within the 4 MiB answer limit, and rendering every one of
// them froze the page and exhausted the heap. The step renders at most MAX_SHOWN_INSTITUTIONS, says in
// the shopper's words how to find the rest, the search still covers every bank, and the
// merchant hears of an answer no real list reaches once per load.
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MESSAGES } from '../../src/core/index';
import { createFakeTransport } from '../helpers/fake-transport';
import { PSEUDO_MESSAGES, developerTextIn, englishLeftIn } from '../helpers/shopper-text';
import { renderServicePay } from './render';
import { RENDERERS } from '../helpers/renderers';

/** `count` banks named "Bank 1" to "Bank <count>", in that order. */
const banks = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `ob-${i + 1}`, name: `Bank ${i + 1}` }));

const tiles = (name = 'Banks') =>
  within(screen.getByRole('list', { name }))
    .getAllByRole('button')
    .map((tile) => tile.textContent);

/** The live region (role="status") holding `text`: the root's own status line is another. */
const announced = (text: string) =>
  screen.getAllByRole('status').some((status) => status.textContent === text);

// Without the bound, opening this list renders 100,000 buttons: minutes and gigabytes in
// jsdom. The timeout only guards a loaded machine; nothing here is timed.
const LONG = { timeout: 120_000 };

// On both renderers (test/helpers/renderers.tsx): React's and the Preact build of window.Service.
describe.each(RENDERERS)('$name with a transport answering 100,000 banks', (renderer) => {
  beforeAll(() => renderer.prepare(), 60_000);
  it(
    'renders 200 with a hint, reports once, and search finds and pays the 99,999th',
    LONG,
    async () => {
      const transport = createFakeTransport({ institutions: banks(100_000) });
      const { user, errorConsumer, openUrl } = await renderer.mount({ transport });
      await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
      await screen.findByRole('list', { name: 'Banks' });

      expect(tiles()).toHaveLength(200);
      expect(tiles().slice(0, 2)).toEqual(['Bank 1', 'Bank 2']);
      // The numbers as English writes them (Intl.NumberFormat), the plural form of the total.
      const hint = 'Showing 200 of 100,000 banks. Type your bank’s name to find it.';
      expect(hint).toBe(DEFAULT_MESSAGES.moreBanks.other('200', '100,000'));
      expect(announced(hint)).toBe(true);

      // Once, with the spec's error object: where (fetchInstitutions), the count and the bounds.
      expect(errorConsumer).toHaveBeenCalledTimes(1);
      expect(errorConsumer).toHaveBeenCalledWith({
        location: 'fetchInstitutions',
        error: 'servicepay: fetchInstitutions answered 100000 banks, too many',
      });

      // The keyboard model on the rendered banks: from the search field into the list, End to
      // the last one shown, Home back to the first.
      const search = screen.getByRole('searchbox', { name: 'Search for your bank' });
      await waitFor(() => expect(search).toHaveFocus());
      await user.keyboard('{ArrowDown}');
      expect(screen.getByRole('button', { name: 'Bank 1' })).toHaveFocus();
      await user.keyboard('{End}');
      expect(screen.getByRole('button', { name: 'Bank 200' })).toHaveFocus();
      await user.keyboard('{Home}');
      expect(screen.getByRole('button', { name: 'Bank 1' })).toHaveFocus();

      // The search covers every bank, not only the 200 shown.
      await user.click(search);
      await user.type(search, 'bank 99999');
      expect(tiles()).toEqual(['Bank 99999']);
      expect(announced(hint)).toBe(false);
      await user.click(screen.getByRole('button', { name: 'Bank 99999' }));
      await waitFor(() => expect(openUrl).toHaveBeenCalledTimes(1));
      expect(transport.paymentRequests.map((r) => r.institutionId)).toEqual(['ob-99999']);
      // Nothing more was reported.
      expect(errorConsumer).toHaveBeenCalledTimes(1);
    },
  );
});

describe('<ServicePay> with a transport answering 100,000 banks', () => {
  it('a search matching more than 200 keeps the bound and counts its matches', LONG, async () => {
    const transport = createFakeTransport({ institutions: banks(100_000) });
    const { user } = renderServicePay({ transport });
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    // "Bank 7" is in 11,111 names: Bank 7, Bank 70 to 79, Bank 700 to 799, ...
    await user.type(await screen.findByRole('searchbox'), 'bank 7');
    expect(tiles()).toHaveLength(200);
    expect(tiles().slice(0, 3)).toEqual(['Bank 7', 'Bank 70', 'Bank 71']);
    expect(announced('Showing 200 of 11,111 banks. Type your bank’s name to find it.')).toBe(true);
  });
});

describe('a list longer than the bound but like a real one (250 banks)', () => {
  it('is shown 200 at a time with the hint, and nothing is reported', async () => {
    const transport = createFakeTransport({ institutions: banks(250) });
    const { user, errorConsumer } = renderServicePay({ transport });
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    await screen.findByRole('list', { name: 'Banks' });
    expect(tiles()).toHaveLength(200);
    expect(announced('Showing 200 of 250 banks. Type your bank’s name to find it.')).toBe(true);
    expect(errorConsumer).not.toHaveBeenCalled();
  });

  it('the hint comes from the messages table (pseudo-locale), with no developer text', async () => {
    const transport = createFakeTransport({ institutions: banks(250) });
    const { ref, container } = renderServicePay({ transport, messages: PSEUDO_MESSAGES });
    await screen.findByRole('button', { name: /⟦payLabel⟧/ });
    await act(async () => ref.current!.openInstitutionSelection());
    expect(await screen.findByText('⟦moreBanks:200⟧')).toBeInTheDocument();
    expect(englishLeftIn(container, tiles('⟦banks⟧') as string[])).toBe('');
    expect(developerTextIn(container)).toBeUndefined();
  });
});
