import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, mocked, userEvent, waitFor, within } from 'storybook/test';
import { DEFAULT_RESULT_MESSAGES as M, PaymentResult, SAVED_PAYMENT_KEY } from 'servicepay';
import type { PaymentReceipt, PaymentStatus } from 'servicepay';
import cy from 'servicepay/locales/cy';
import { englishWordsIn } from '../test/helpers/shopper-text';

/**
 * The shop's status endpoint, in the browser: answers every poll with `status` (and what was
 * paid, as a shop's `expose` adds it) after a short, realistic delay. The stories poll (`eventSource: false`) so that each state is reached the
 * same way every time; the event stream is tested in Chromium (test/e2e/payment-result).
 */
function statusEndpoint(status: PaymentStatus, paid?: PaymentReceipt) {
  return fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    init?.signal?.throwIfAborted();
    return new Response(JSON.stringify({ paid, status }), {
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
    });
  });
}

const PAYMENT = {
  paymentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  merchantPaymentId: 'order-1042',
};
const WAIT = { timeout: 5000 };

const meta = {
  title: 'After the bank/PaymentResult',
  component: PaymentResult,
  tags: ['autodocs'],
  args: {
    statusUrl: '/api/payments/status',
    payment: PAYMENT,
    onResult: fn(),
    onTryAgain: fn(),
    eventSource: false,
    fetch: statusEndpoint('PENDING'),
  },
  argTypes: {
    onResult: { control: false },
    onTryAgain: { control: false },
    fetch: { control: false },
    payment: { control: 'object' },
  },
  parameters: {
    docs: {
      description: {
        component:
          'The page the bank sends the shopper back to. It finds the payment (the return ' +
          'address, else the ids the Pay component saved in this tab), then asks the shop’s own ' +
          'status endpoint (`createPaymentStatusHandler`) over an event stream, polling when ' +
          'streams fail: only the endpoint decides. Each state has its heading, which takes ' +
          'focus when the state changes, a sentence in a polite live region, and a shape as well ' +
          'as a colour. Here the endpoint is a fake in the browser that answers polls.',
      },
      source: {
        code: `<PaymentResult
  statusUrl="/api/payments/status"
  onResult={(outcome) => clearBasket(outcome)}
  onTryAgain={() => router.push('/checkout?choose-bank')}
/>`,
      },
    },
  },
} satisfies Meta<typeof PaymentResult>;

export default meta;
type Story = StoryObj<typeof meta>;

const stateOf = (canvasElement: HTMLElement) =>
  canvasElement.querySelector('[data-state]')?.getAttribute('data-state');

export const Waiting: Story = {
  name: 'Waiting for the bank',
  parameters: {
    docs: { description: { story: 'The endpoint answers PENDING: the page keeps waiting.' } },
  },
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: M.waiting })).toBeInTheDocument();
    await expect(canvas.getByRole('status')).toHaveTextContent(M.waitingText);
    await waitFor(() => expect(args.fetch).toHaveBeenCalled(), WAIT);
    await expect(stateOf(canvasElement)).toBe('waiting');
    await expect(args.onResult).not.toHaveBeenCalled();
  },
};

export const Received: Story = {
  name: 'Payment received',
  args: { fetch: statusEndpoint('COMPLETED') },
  parameters: {
    docs: {
      description: { story: 'COMPLETED: `onResult` is called once, with the ids and the status.' },
    },
  },
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    const heading = await canvas.findByRole('heading', { name: M.received }, WAIT);
    await waitFor(() => expect(heading).toHaveFocus());
    await expect(canvas.getByRole('status')).toHaveTextContent(M.receivedText);
    await expect(mocked(args.onResult!).mock.calls).toEqual([
      [{ ...PAYMENT, status: 'COMPLETED' }],
    ]);
  },
};

/** What was paid, as the example shop's `expose` adds it from its order. */
const PAID: PaymentReceipt = { amount: 12.5, payee: 'Example Coffee Co.', reference: 'ORDER-1042' };

/** The receipt as the shopper reads it: each term beside its value. */
const receiptIn = (canvasElement: HTMLElement) =>
  within(canvasElement)
    .getAllByRole('term')
    .map((term) => [term.textContent, term.nextElementSibling?.textContent]);

export const ReceivedWithWhatWasPaid: Story = {
  name: 'Payment received, with what was paid',
  args: { fetch: statusEndpoint('COMPLETED', PAID) },
  parameters: {
    docs: {
      description: {
        story:
          'COMPLETED, and the shop’s status endpoint says what was paid (`expose` adds ' +
          '`paid: { amount, payee, reference }` from the order the shop’s server holds): a ' +
          'short list under the sentence. Nothing without it.',
      },
    },
  },
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByRole('heading', { name: M.received }, WAIT);
    await expect(receiptIn(canvasElement)).toEqual([
      [M.paidAmount, '£12.50'],
      [M.paidTo, PAID.payee],
      [M.paidReference, PAID.reference],
    ]);
  },
};

export const NotCompleted: Story = {
  name: 'Payment not completed',
  args: { fetch: statusEndpoint('FAILED') },
  parameters: {
    docs: {
      description: {
        story: 'FAILED: “Try again” calls `onTryAgain` (back to the bank step, say).',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('heading', { name: M.notCompleted }, WAIT);
    await userEvent.click(canvas.getByRole('button', { name: M.tryAgain }));
    await expect(args.onTryAgain).toHaveBeenCalledTimes(1);
    await expect(mocked(args.onResult!).mock.calls).toEqual([[{ ...PAYMENT, status: 'FAILED' }]]);
  },
};

export const NeedsReview: Story = {
  name: 'Needs review',
  args: {
    fetch: statusEndpoint('NEEDS_REVIEW'),
    reviewContact: 'Questions? Call us on 020 7946 0000, 9am to 5pm.',
  },
  parameters: {
    docs: {
      description: {
        story:
          'NEEDS_REVIEW: the bank reported the payment but it does not match its order. Neither ' +
          'received nor not completed: the shop will be in touch, with its own contact ' +
          '(`reviewContact`); `onResult` is called once with status `NEEDS_REVIEW`.',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    const heading = await canvas.findByRole('heading', { name: M.needsReview }, WAIT);
    await waitFor(() => expect(heading).toHaveFocus());
    await expect(canvas.getByRole('status')).toHaveTextContent(M.needsReviewText);
    await expect(canvas.getByText(args.reviewContact!)).toBeInTheDocument();
    await expect(canvas.queryByRole('button')).toBeNull();
    await expect(mocked(args.onResult!).mock.calls).toEqual([
      [{ ...PAYMENT, status: 'NEEDS_REVIEW' }],
    ]);
  },
};

export const NeedsReviewWithReference: Story = {
  name: 'Needs review, with the reference to quote',
  args: {
    fetch: statusEndpoint('NEEDS_REVIEW', { reference: 'ORDER-1042' }),
    reviewContact: 'Questions? Email orders@example-coffee.test and quote your reference.',
  },
  parameters: {
    docs: {
      description: {
        story:
          'NEEDS_REVIEW, and the shop says only the order’s reference (the amount paid may not ' +
          'be the order’s): the shopper has it to quote.',
      },
    },
  },
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByRole('heading', { name: M.needsReview }, WAIT);
    await expect(receiptIn(canvasElement)).toEqual([[M.paidReference, 'ORDER-1042']]);
  },
};

export const PhoneReceivedWithWhatWasPaid: Story = {
  name: 'Phone width (390 px): received, with a long payee and reference',
  args: {
    headingLevel: 1,
    fetch: statusEndpoint('COMPLETED', {
      amount: 1234.5,
      payee: 'The Long-Named Independent Coffee Roasting Company of Aberystwyth Ltd',
      reference: 'SUBSCRIPTION-2026-0000000000001042-QUARTERLY',
    }),
  },
  parameters: { frame: 'phone' },
  globals: { viewport: { value: 'phone', isRotated: false } },
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByRole('heading', { level: 1, name: M.received }, WAIT);
    await expect(receiptIn(canvasElement)[0]).toEqual([M.paidAmount, '£1,234.50']);
    // Nothing wider than the page: the long values wrap.
    const root = canvasElement.querySelector('[data-state]')!;
    await expect(root.scrollWidth).toBeLessThanOrEqual(root.clientWidth);
  },
};

/** The shop's sentence on how the shopper will hear, and its contact, as a merchant gives them. */
const PENDING_NOTICE = 'We’ll email you at j•••@example.com as soon as your bank confirms.';
const CONTACT = 'Questions? Call us on 020 7946 0000, 9am to 5pm.';

export const StillConfirming: Story = {
  name: 'Bank still confirming',
  args: { notHeardAfterMs: 400, pendingNotice: PENDING_NOTICE, reviewContact: CONTACT },
  parameters: {
    docs: {
      description: {
        story:
          'Nothing final after `notHeardAfterMs` (a minute by default; 0.4 s here): ordinary ' +
          'for a payment the bank checks. The page says so calmly, tells the shopper they may ' +
          'close it and how the shop will tell them (`pendingNotice`), and keeps listening, ' +
          'with nothing to press: the outcome replaces it by itself, until ' +
          '`stopListeningAfterMs` (30 minutes).',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    const heading = await canvas.findByRole('heading', { name: M.stillConfirming }, WAIT);
    await waitFor(() => expect(heading).toHaveFocus());
    await expect(canvas.getByRole('status')).toHaveTextContent(M.stillConfirmingText);
    await expect(canvas.getByText(PENDING_NOTICE)).toBeVisible();
    await expect(canvas.queryByText(CONTACT)).toBeNull();
    await expect(canvas.queryByRole('button')).toBeNull();
    await expect(stateOf(canvasElement)).toBe('still-confirming');
    await expect(args.onResult).not.toHaveBeenCalled();
  },
};

export const NotHeard: Story = {
  name: 'Not heard from the bank',
  args: {
    notHeardAfterMs: 400,
    stopListeningAfterMs: 400,
    pendingNotice: PENDING_NOTICE,
    reviewContact: CONTACT,
  },
  parameters: {
    docs: {
      description: {
        story:
          'Nothing final by `stopListeningAfterMs` (30 minutes by default; 0.4 s here): the ' +
          'page stops listening and says what to do, with the shop’s sentence and contact. ' +
          '“Check again” listens once more, from the start.',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('heading', { name: M.notHeard }, WAIT);
    await expect(canvas.getByText(PENDING_NOTICE)).toBeVisible();
    await expect(canvas.getByText(CONTACT)).toBeVisible();
    const asked = mocked(args.fetch!).mock.calls.length;
    await userEvent.click(canvas.getByRole('button', { name: M.checkAgain }));
    await waitFor(() => expect(mocked(args.fetch!).mock.calls.length).toBeGreaterThan(asked), WAIT);
    await canvas.findByRole('heading', { name: M.notHeard }, WAIT);
    await expect(args.onResult).not.toHaveBeenCalled();
  },
};

export const NotFound: Story = {
  name: 'Payment not found',
  args: { payment: undefined },
  // Nothing saved in this tab and nothing in the address: no payment to ask about.
  loaders: [() => sessionStorage.removeItem(SAVED_PAYMENT_KEY)],
  parameters: {
    docs: {
      description: {
        story:
          'No ids in the return address and none saved in this tab: the shopper is told so, ' +
          'and nothing is asked.',
      },
    },
  },
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('heading', { name: M.notFound }, WAIT);
    await expect(canvas.getByRole('status')).toHaveTextContent(M.notFoundText);
    await expect(args.fetch).not.toHaveBeenCalled();
  },
};

export const PhoneStillConfirming: Story = {
  name: 'Phone width (390 px): bank still confirming',
  args: { notHeardAfterMs: 400, headingLevel: 1, pendingNotice: PENDING_NOTICE },
  parameters: { frame: 'phone' },
  globals: { viewport: { value: 'phone', isRotated: false } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('heading', { level: 1, name: M.stillConfirming }, WAIT);
    await expect(canvas.getByText(PENDING_NOTICE)).toBeVisible();
  },
};

export const PhoneNotHeard: Story = {
  name: 'Phone width (390 px): not heard',
  args: { notHeardAfterMs: 400, stopListeningAfterMs: 400, headingLevel: 1 },
  parameters: { frame: 'phone' },
  globals: { viewport: { value: 'phone', isRotated: false } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('heading', { level: 1, name: M.notHeard }, WAIT);
    await expect(canvas.getByRole('button', { name: M.checkAgain })).toBeVisible();
  },
};

export const OwnWords: Story = {
  name: 'In the merchant’s words',
  args: {
    fetch: statusEndpoint('COMPLETED'),
    messages: { received: 'Paiement reçu', receivedText: 'Merci ! Votre banque a confirmé.' },
  },
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByRole('heading', { name: 'Paiement reçu' }, WAIT);
  },
};

// In Welsh (`locale={cy}`, docs/languages.md): every state's words from the catalogue, the root
// marked `lang="cy"`, the shop's own sentences in the shop's words (here Welsh too).
const NOTICE_CY = 'Byddwn yn anfon e-bost atoch cyn gynted ag y bydd eich banc yn cadarnhau.';
const CONTACT_CY = 'Cwestiynau? Ffoniwch ni ar 029 2000 0000, 9am tan 5pm.';
const inWelsh = async (canvasElement: HTMLElement, heading: string) => {
  const canvas = within(canvasElement);
  await canvas.findByRole('heading', { name: heading }, WAIT);
  await expect(canvasElement.querySelector('[data-state]')).toHaveAttribute('lang', 'cy');
  await expect(
    englishWordsIn(canvasElement, [NOTICE_CY, CONTACT_CY, PAID.payee!, PAID.reference!]),
  ).toEqual([]);
  return canvas;
};

export const WelshStillConfirming: Story = {
  name: 'In Welsh: bank still confirming',
  args: { locale: cy, notHeardAfterMs: 400, pendingNotice: NOTICE_CY },
  play: async ({ canvasElement }) => {
    const canvas = await inWelsh(canvasElement, cy.result.stillConfirming);
    await expect(canvas.getByRole('status')).toHaveTextContent(cy.result.stillConfirmingText);
  },
};

export const WelshNeedsReview: Story = {
  name: 'In Welsh: we need to check this payment',
  args: { locale: cy, fetch: statusEndpoint('NEEDS_REVIEW'), reviewContact: CONTACT_CY },
  play: async ({ canvasElement }) => {
    const canvas = await inWelsh(canvasElement, cy.result.needsReview);
    await expect(canvas.getByText(CONTACT_CY)).toBeVisible();
  },
};

export const WelshNotCompleted: Story = {
  name: 'In Welsh: not completed',
  args: { locale: cy, fetch: statusEndpoint('FAILED') },
  play: async ({ canvasElement }) => {
    const canvas = await inWelsh(canvasElement, cy.result.notCompleted);
    await expect(canvas.getByRole('button', { name: cy.result.tryAgain })).toBeVisible();
  },
};

export const WelshPhoneNotHeard: Story = {
  name: 'In Welsh, phone width (390 px): not heard',
  args: {
    locale: cy,
    notHeardAfterMs: 400,
    stopListeningAfterMs: 400,
    headingLevel: 1,
    pendingNotice: NOTICE_CY,
    reviewContact: CONTACT_CY,
  },
  parameters: { frame: 'phone' },
  globals: { viewport: { value: 'phone', isRotated: false } },
  play: async ({ canvasElement }) => {
    const canvas = await inWelsh(canvasElement, cy.result.notHeard);
    await expect(canvas.getByRole('button', { name: cy.result.checkAgain })).toBeVisible();
  },
};

export const WelshPhoneReceived: Story = {
  name: 'In Welsh, phone width (390 px): received, with what was paid',
  args: { locale: cy, fetch: statusEndpoint('COMPLETED', PAID), headingLevel: 1 },
  parameters: { frame: 'phone' },
  globals: { viewport: { value: 'phone', isRotated: false } },
  play: async ({ canvasElement }) => {
    await inWelsh(canvasElement, cy.result.received);
    await expect(receiptIn(canvasElement)).toEqual([
      ['Swm', '£12.50'],
      ['Talwyd i', PAID.payee],
      ['Cyfeirnod', PAID.reference],
    ]);
  },
};
