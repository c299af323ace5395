import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import { DEFAULT_MESSAGES } from '../../src/core/index';
import type { Institution } from '../../src/core/index';
import { createFakeTransport } from '../helpers/fake-transport';

export { deferred } from '../helpers/deferred';
export { reply } from '../helpers/fake-transport';

export { APP_ID } from '../helpers/merchant';

export const BANKS: Institution[] = [
  { id: 'barclays', name: 'Barclays', iconUrl: 'https://icons.test/barclays.svg' },
  { id: 'hsbc', name: 'HSBC UK', iconUrl: 'https://icons.test/hsbc.svg' },
  { id: 'monzo', name: 'Monzo' },
];

/** More banks than the search threshold: the open list has its search field. */
export const SEARCHABLE_BANKS: Institution[] = [
  ...BANKS,
  ...['Lloyds', 'NatWest', 'Santander', 'Nationwide', 'Starling', 'Revolut', 'TSB'].map((name) => ({
    id: name.toLowerCase(),
    name,
  })),
];

/**
 * With SEARCHABLE_BANKS open: the search field has focus, and the list follows every key typed
 * into it, one at a time (no blur, no Enter).
 */
export async function expectSearchOnEachKey(user: UserEvent): Promise<void> {
  const search = await screen.findByRole('searchbox', { name: DEFAULT_MESSAGES.search });
  await waitFor(() => expect(search).toHaveFocus());
  const shown: string[][] = [];
  for (const key of 'natw') {
    await user.keyboard(key);
    const list = screen.getByRole('list', { name: DEFAULT_MESSAGES.banks });
    shown.push(
      within(list)
        .queryAllByRole('button')
        .map((bank) => bank.textContent ?? ''),
    );
  }
  expect(shown).toEqual([
    ['Monzo', 'NatWest', 'Santander', 'Nationwide', 'Starling'],
    ['NatWest', 'Nationwide'],
    ['NatWest', 'Nationwide'],
    ['NatWest'],
  ]);
  expect(search).toHaveFocus();
  expect(search).toHaveValue('natw');
}

/** The one fake transport (test/helpers), listing `institutions` (BANKS unless given). */
export function fakeTransport(institutions: Institution[] = BANKS) {
  return createFakeTransport({ institutions });
}
