// Untrusted transport answers through <ServicePay> (issue 14, finding 5): a bank name that is
// a number or an object, a null item, a null list, a javascript: logo, duplicate ids, a
// malformed payment answer. None may throw into the merchant's React tree: the good banks
// still render, React logs nothing, and errorConsumer hears once what was wrong.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MockInstance } from 'vitest';
import {
  DEFAULT_INSTITUTIONS,
  createFakeTransport,
  defaultInitiatedPayment,
  reply,
} from '../helpers/fake-transport';
import type { FakeTransport } from '../helpers/fake-transport';
import { renderServicePay } from './render';
import { OPENED_IDS } from '../helpers/opened-ids';

const [BARCLAYS, HSBC] = DEFAULT_INSTITUTIONS;

let consoleError: MockInstance<typeof console.error>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error');
});
afterEach(() => {
  // No React warning (duplicate keys, a crash in render) and nothing else logged.
  expect(consoleError).not.toHaveBeenCalled();
  vi.restoreAllMocks();
});

const setup = (transport: FakeTransport) => renderServicePay({ transport });

/** Opens the bank list of a component whose transport answers `list`; returns the tiles. */
async function banksShownFor(list: unknown) {
  const transport = createFakeTransport({ fetchInstitutions: reply.untyped(list) });
  const harness = setup(transport);
  await harness.user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
  const banks = await screen.findByRole('list', { name: 'Banks' });
  const tiles = within(banks)
    .getAllByRole('button')
    .map((tile) => tile.textContent);
  return { ...harness, transport, tiles };
}

describe('<ServicePay> with a transport answering bad banks', () => {
  it.each([
    ['a name that is an object', { id: 'ob-x', name: { en: 'X' } }],
    ['a null item', null],
    ['an id that is a number', { id: 7, name: 'Seven' }],
    ['a duplicate id', { ...BARCLAYS, name: 'Barclays again' }],
  ])('%s: dropped; the other banks render; reported once', async (_name, bad) => {
    const { tiles, errorConsumer } = await banksShownFor([BARCLAYS, bad, HSBC]);
    expect(tiles).toEqual(['Barclays', 'HSBC UK']);
    expect(errorConsumer).toHaveBeenCalledTimes(1);
    expect(errorConsumer).toHaveBeenCalledWith({
      location: 'fetchInstitutions',
      error: expect.stringMatching(/^servicepay: fetchInstitutions answer fixed: /) as string,
    });
    expect(screen.getByRole('alert')).toBeEmptyDOMElement();
  });

  it('a name that is a number renders as its digits', async () => {
    const { tiles, errorConsumer } = await banksShownFor([BARCLAYS, { id: 'ob-42', name: 42 }]);
    expect(tiles).toEqual(['Barclays', '42']);
    expect(errorConsumer).toHaveBeenCalledTimes(1);
  });

  it('a javascript: logo never reaches <img src>: that bank shows its initials', async () => {
    const { tiles, errorConsumer } = await banksShownFor([
      { id: 'ob-x', name: 'X Bank', iconUrl: 'javascript:alert(1)' },
      { id: 'ob-y', name: 'Y Bank', iconUrl: 'data:image/png;base64,iVBORw0KGgo=' },
      { id: 'ob-z', name: 'Z Bank', iconUrl: 'data:image/svg+xml;base64,PHN2Zz4=' },
    ]);
    expect(tiles).toEqual(['X Bank', 'Y Bank', 'Z Bank']);
    // Logos are decorative (alt=""): the bank's name is its button's name.
    const images = [...document.querySelectorAll('img')];
    expect(images.map((img) => img.getAttribute('src'))).toEqual([
      'data:image/png;base64,iVBORw0KGgo=',
    ]);
    expect(
      screen.getByRole('button', { name: 'X Bank' }).querySelector('[data-initials]'),
    ).toHaveAttribute('data-initials', 'XB');
    expect(errorConsumer).toHaveBeenCalledTimes(1);
    expect(errorConsumer.mock.calls[0]![0]).toMatchObject({ location: 'fetchInstitutions' });
  });

  it('a null list shows the error and Try again; trying again with a list shows the banks', async () => {
    const transport = createFakeTransport();
    transport.replyOnce('fetchInstitutions', reply.untyped(null));
    const { container, errorConsumer, user } = setup(transport);
    const retry = await screen.findByRole('button', { name: 'Try again' });
    expect(container.firstElementChild).toHaveAttribute('data-state', 'error');
    expect(errorConsumer.mock.calls).toEqual([
      [
        {
          location: 'fetchInstitutions',
          error: 'servicepay: fetchInstitutions resolved with null, not an array',
        },
      ],
    ]);

    // Try again stands where Pay was: the list the shopper asked for opens once the banks arrive.
    await user.click(retry);
    expect(await screen.findByRole('button', { name: 'Barclays' })).toBeInTheDocument();
    expect(transport.fetchCalls).toHaveLength(2);
    expect(errorConsumer).toHaveBeenCalledTimes(1);
  });
});

describe('<ServicePay> with a transport answering a bad payment', () => {
  it('a null answer is reported, nothing opens, and the next click pays', async () => {
    const transport = createFakeTransport();
    transport.replyOnce('initiatePayment', reply.untyped(null));
    const { errorConsumer, openUrl, user } = setup(transport);
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    await user.click(await screen.findByRole('button', { name: 'Monzo' }));

    await waitFor(() => expect(errorConsumer).toHaveBeenCalledTimes(1));
    expect(errorConsumer).toHaveBeenCalledWith({
      location: 'payWithBankInstitution',
      error: 'servicepay: initiatePayment resolved with null, not { paymentId, authorisationUrl }',
    });
    expect(openUrl).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Monzo' }));
    await waitFor(() =>
      expect(openUrl).toHaveBeenCalledWith(defaultInitiatedPayment(2).authorisationUrl, OPENED_IDS),
    );
    expect(errorConsumer).toHaveBeenCalledTimes(1);
  });
});
