/**
 * `injectComponent` was given no usable element id. A programming mistake in the page's own
 * call, so it is thrown there (synchronously, with the stack of that call) rather than sent
 * to `errorConsumer`, whose locations (spec 2.4) are about payments and institutions.
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
