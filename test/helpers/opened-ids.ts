import { expect } from 'vitest';

/**
 * `openUrl`'s second argument: the ids of the payment whose bank page is opened (a front door
 * may hand the address to the shopper's phone instead, and needs them to follow the payment).
 */
export const OPENED_IDS = expect.objectContaining({
  paymentId: expect.any(String),
  merchantPaymentId: expect.any(String),
});
