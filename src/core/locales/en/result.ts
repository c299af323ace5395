import type { PaymentResultMessages } from '../../catalogue';

/** The result page, in English (what each is for: PaymentResultMessages). */
export const result: PaymentResultMessages = {
  waiting: 'Waiting for your bank to confirm…',
  waitingText: 'This usually takes a few seconds. Please keep this page open.',
  stillConfirming: 'Your bank is still confirming this payment',
  stillConfirmingText:
    'This can take a few minutes, sometimes longer. You can close this page: it doesn’t affect your payment. If you keep it open, it will update by itself.',
  received: 'Payment received',
  receivedText: 'Thank you. Your bank has confirmed your payment.',
  notCompleted: 'Payment not completed',
  notCompletedText:
    'Your bank didn’t complete the payment, so no money has been taken. You can try again.',
  needsReview: 'We need to check this payment',
  needsReviewText:
    'The shop will check it and be in touch. Please don’t pay again in the meantime.',
  paidAmount: 'Amount',
  paidTo: 'Paid to',
  paidReference: 'Reference',
  tryAgain: 'Try again',
  notHeard: 'We haven’t heard from your bank yet',
  notHeardText:
    'Check your banking app. If the payment is there, there is nothing more to do: the shop will confirm it as soon as your bank tells it. If it isn’t there, no money has been taken.',
  checkAgain: 'Check again',
  notFound: 'We can’t find your payment',
  notFoundText:
    'This page didn’t receive the details of a payment. If you paid, check your banking app or contact the shop.',
};
