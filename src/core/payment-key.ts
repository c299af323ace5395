/**
 * The `payment` option by value, one rule for every front door (the session, servicepay/hosted):
 * a new object with the same content is the same payment, and is not sent again. Free of
 * dependencies, so that servicepay/hosted can import it.
 */
export const paymentKey = (payment: unknown): unknown => {
  try {
    return JSON.stringify(payment);
  } catch {
    // Not JSON (a cycle, a BigInt): the object itself, compared by identity.
    return payment;
  }
};
