/**
 * What the shopper must never read: the library's prefix, an API or field name, a URL, a
 * status line or a duration in ms. Checks the text and the attributes that are read out or
 * shown (aria-label, placeholder, title, alt).
 */
const DEVELOPER_TEXT =
  /servicepay:|Input validation|field=|paymentRequest|createPayment|payWithInstitution|openInstitutionSelection|fetchInstitutions|https?:\/\/|\bHTTP \d|\d+ ?ms\b|Error:/;

/** Everything a shopper can see or hear in `element`. */
export function shopperFacingText(element: Element): string {
  const attributes = [...element.querySelectorAll('[aria-label],[placeholder],[title],[alt]')].map(
    (e) => ['aria-label', 'placeholder', 'title', 'alt'].map((a) => e.getAttribute(a) ?? ''),
  );
  return [element.textContent ?? '', ...attributes.flat()].join('\n');
}

export function developerTextIn(element: Element): string | undefined {
  return DEVELOPER_TEXT.exec(shopperFacingText(element))?.[0];
}
