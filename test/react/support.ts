import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import { DEFAULT_MESSAGES } from '../../src/core/index';
import type { Institution, PaymentInitiation, ServiceTransport } from '../../src/core/index';

export { deferred } from '../helpers/deferred';

export const APP_ID = '3f2a1d4e-5b6c-4d7e-8f90-a1b2c3d4e5f6';

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

/** A transport answering at once, unless a test swaps an implementation in. */
export function makeTransport(institutions: Institution[] = BANKS) {
  const payments: PaymentInitiation[] = [];
  const signals: AbortSignal[] = [];
  const transport = {
    fetchInstitutions: vi.fn<ServiceTransport['fetchInstitutions']>(async () => institutions),
    initiatePayment: vi.fn<ServiceTransport['initiatePayment']>(async (req, signal) => {
      payments.push(req);
      if (signal) signals.push(signal);
      return {
        paymentId: `pay-${payments.length}`,
        authorisationUrl: `https://bank.test/authorise/${payments.length}`,
      };
    }),
  };
  return { transport, payments, signals };
}

/** One ordered log of events and errors, as the merchant's callbacks saw them. */
export function makeLog() {
  const log: string[] = [];
  return {
    log,
    eventConsumer: (event: string) => log.push(event),
    errorConsumer: (error: { location: string; error: string }) =>
      log.push(`error:${error.location}:${error.error}`),
  };
}
