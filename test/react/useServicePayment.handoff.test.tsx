// The headless hook with the extras: on a desktop with a status endpoint it hands the bank's
// address to the merchant's own handoff (`handoff`, `continueHere`) instead of opening it.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { extras } from 'servicepay/extras';
import { HANDOFF_MEDIA } from '../../src/core/index';
import { useServicePayment } from '../../src/react/index';
import type { UseServicePaymentOptions } from '../../src/react/index';
import { createEventLog } from '../helpers/event-log';
import { defaultInitiatedPayment } from '../helpers/fake-transport';
import { APP_ID, fakeTransport } from './support';

/** A merchant's own UI on the hook, with its own handoff (the address as text here). */
function OwnHandoff(options: UseServicePaymentOptions) {
  const pay = useServicePayment(options);
  return (
    <section aria-label="Custom checkout">
      <button type="button" onClick={pay.openInstitutionSelection}>
        Choose bank
      </button>
      {pay.listState === 'open' &&
        pay.institutions.map((bank) => (
          <button key={bank.id} type="button" onClick={() => void pay.payWithInstitution(bank.id)}>
            Pay with {bank.name}
          </button>
        ))}
      {pay.handoff && (
        <div role="region" aria-label="On your phone">
          <p>
            {pay.handoff.institution.name}: {pay.handoff.url}
          </p>
          <button type="button" onClick={pay.continueHere}>
            Here instead
          </button>
        </div>
      )}
    </section>
  );
}

afterEach(() => vi.unstubAllGlobals());

const options = (more: Partial<UseServicePaymentOptions>): UseServicePaymentOptions => ({
  environment: 'SANDBOX',
  applicationId: APP_ID,
  transport: fakeTransport(),
  payment: { amount: 5, paymentReference: 'HOOK-1' },
  ...more,
});

async function payWithFirstBank() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Choose bank' }));
  await user.click((await screen.findAllByRole('button', { name: /^Pay with/ }))[0]!);
  return user;
}

it('on a desktop, hands the address to the merchant’s handoff; continueHere opens it', async () => {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === HANDOFF_MEDIA }));
  const openUrl = vi.fn();
  const { entries, eventConsumer } = createEventLog();
  render(<OwnHandoff {...options({ extras, statusUrl: '/status', openUrl, eventConsumer })} />);
  const user = await payWithFirstBank();
  const region = await screen.findByRole('region', { name: 'On your phone' });
  const { authorisationUrl, paymentId } = defaultInitiatedPayment(1);
  expect(region).toHaveTextContent(authorisationUrl);
  expect(openUrl).not.toHaveBeenCalled();
  expect(entries.filter((e) => e === 'event:awaiting_authorisation')).toHaveLength(1);
  await user.click(screen.getByRole('button', { name: 'Here instead' }));
  expect(openUrl).toHaveBeenCalledWith(
    authorisationUrl,
    expect.objectContaining({ paymentId, merchantPaymentId: expect.any(String) }),
  );
  expect(screen.queryByRole('region', { name: 'On your phone' })).toBeNull();
});

it('continueHere with an openUrl that throws: reported to errorConsumer, not thrown into the page', async () => {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === HANDOFF_MEDIA }));
  const errors: unknown[] = [];
  let opens = 0;
  const openUrl = () => {
    // Called only by continueHere: the extras sent the bank's address to the phone.
    opens++;
    throw new Error('Navigation blocked by the page');
  };
  render(
    <OwnHandoff
      {...options({
        extras,
        statusUrl: '/status',
        openUrl,
        errorConsumer: (error) => errors.push(error),
      })}
    />,
  );
  const user = await payWithFirstBank();
  await screen.findByRole('region', { name: 'On your phone' });
  await user.click(screen.getByRole('button', { name: 'Here instead' }));
  expect(opens).toBe(1);
  expect(errors).toEqual([
    {
      location: 'payWithBankInstitution',
      error:
        'servicepay: could not open the authorisation URL: Error: Navigation blocked by the page',
    },
  ]);
  // The merchant's UI is still there (nothing was thrown out of the click).
  expect(screen.getByRole('region', { name: 'Custom checkout' })).toBeVisible();
});

it('opens the bank as before with handoff: false, on a phone, or without the extras', async () => {
  for (const [more, desktop] of [
    [{ extras, statusUrl: '/status', handoff: false }, true],
    [{ extras, statusUrl: '/status' }, false],
    [{ statusUrl: '/status' }, true],
  ] as const) {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: desktop && query === HANDOFF_MEDIA,
    }));
    const openUrl = vi.fn();
    const { unmount } = render(<OwnHandoff {...options({ ...more, openUrl })} />);
    await payWithFirstBank();
    await waitFor(() => expect(openUrl).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('region', { name: 'On your phone' })).toBeNull();
    unmount();
  }
});
