// The example shop's one order, and the reference the shopper last paid with: kept for the tab
// (sessionStorage) so the result page can show the order while the bank has not answered yet,
// and "Try again" starts from the same reference.

export const ORDER = {
  // A no-break space keeps "1 kg" together when the line wraps.
  item: 'Single-origin coffee beans, 1\u00a0kg',
  amount: 12.5,
  defaultReference: 'ORDER-1042',
} as const;

const KEY = 'example-coffee:last-reference';

export function rememberReference(reference: string): void {
  try {
    sessionStorage.setItem(KEY, reference);
  } catch {
    // Storage can be off (private modes, policies); the page then shows less, nothing breaks.
  }
}

export function lastReference(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

const POUNDS = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

/** 12.5 → "£12.50". */
export const formatAmount = (amount: number): string => POUNDS.format(amount);
