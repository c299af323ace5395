/**
 * A random UUID v4. `crypto.randomUUID` exists only in secure contexts (https, localhost),
 * so pages served over plain http in a LAN test fall back to getRandomValues: every 0 and 1
 * of the template becomes a random hex digit, the 8 one of 8, 9, a, b (the variant).
 */
export const randomId = (): string =>
  crypto.randomUUID?.() ??
  // The digit `d` stays text: `^` and `/` read it as a number.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (d: any) =>
    (d ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (d / 4)))).toString(16),
  );
