/**
 * `injectComponent` was given no usable element id: none in the page has it (a programming
 * mistake in the page's own call, so it is thrown there, synchronously, with the stack of that
 * call), or more than one has it (the first may be content of the page that would capture the
 * component: thrown, and `Service` reports it to `errorConsumer` at `fetchInstitutions` too,
 * since it can come from what the page shows rather than from its code).
 */
export class ServiceInjectionError extends Error {
  declare readonly name: 'ServiceInjectionError';
  /** The id that was given. */
  declare readonly elementId: unknown;
  constructor(message: string, elementId: unknown) {
    super(message);
    this.name = 'ServiceInjectionError';
    this.elementId = elementId;
  }
}
