// Preact-only code: what both page classes (Service, ServiceResult) do around their view.
import { render } from 'preact';
import type { VNode } from 'preact';
import { said } from '../core/internal';
import { ServiceInjectionError } from './errors';

/** Set by a standalone script: the nonce its own `<script>` element carried. */
export let scriptNonce: string | undefined;

/**
 * The `<script>` element of the standalone script running now (null afterwards), through
 * Document's own getter and only if it is one: HTML injected above the tag can take over
 * `document.currentScript` by naming an `<img>` or `<form>` so.
 */
export function runningScript(): HTMLScriptElement | undefined {
  // Reflect.get runs the prototype's getter on `document`: a named element cannot shadow it.
  const script: unknown = Reflect.get(Document.prototype, 'currentScript', document);
  return script instanceof HTMLScriptElement ? script : undefined;
}

/**
 * Called by each standalone script while it runs (`document.currentScript` is null
 * afterwards): a page under a strict CSP that gave the script a nonce gets the styles through
 * with the same nonce.
 */
export function setScriptNonce(nonce: string | undefined): void {
  scriptNonce = nonce || undefined;
}

/**
 * A class's options, copied once, with the script's nonce unless one was given. Not an object
 * (or one whose getters throw): an empty one, which the engine then reports as missing its
 * first required option. Never throws.
 */
export function copyOptions<T extends { nonce?: string }>(options: unknown): T {
  let props = {} as T;
  try {
    if (options && typeof options == 'object') props = { ...(options as T) };
  } catch {
    // Reported by the engine as missing options.
  }
  props.nonce ??= scriptNonce;
  return props;
}

/** Where a class's view is rendered: one page element at a time. */
export interface Host {
  /**
   * Renders `view` into the element with this id, replacing its content (as React's
   * createRoot does: Preact would otherwise diff against it and could adopt the page's
   * placeholder markup); called again, it moves there. Returns whether it is the first time.
   * @throws ServiceInjectionError when no element has this id, or more than one has: then
   * `refused` hears of it first.
   */
  inject(elementId: unknown, view: VNode<any>, refused?: (error: string) => void): boolean; // eslint-disable-line @typescript-eslint/no-explicit-any -- any view
  /** Renders `view` where the view is, keeping its state (nothing when it is not in the page). */
  update(view: VNode<any>): void; // eslint-disable-line @typescript-eslint/no-explicit-any -- any view
  /** Takes the view out of the page. */
  remove(): void;
}

export function createHost(): Host {
  let host: Element | undefined;
  const remove = () => {
    if (host) render(null, host);
    host = undefined;
  };
  return {
    inject(elementId, view, refused) {
      const element =
        typeof elementId == 'string' && elementId ? document.getElementById(elementId) : null;
      // getElementById gives the first element with the id: content of the page above the
      // page's own element that carries it (a review, a name: sanitisers keep ids) would get
      // the component, inside whatever link wraps it. So an id two elements carry is refused.
      const twice =
        element && [...document.querySelectorAll('[id]')].filter((e) => e.id == elementId)[1];
      const found = said(
        `injectComponent found ${twice ? 'more than one element' : 'no element'} with id ${JSON.stringify(elementId)}: `,
      );
      if (!element) {
        throw new ServiceInjectionError(
          `${found}call it once the element is in the page (on DOMContentLoaded)`,
          elementId,
        );
      }
      if (twice) {
        const message = `${found}give your element an id that nothing else in the page has`;
        // A callback that throws is thrown in place of this error: the call fails either way.
        refused?.(message);
        throw new ServiceInjectionError(message, elementId);
      }
      const first = !host;
      remove();
      host = element;
      element.textContent = '';
      render(view, element);
      return first;
    },
    update(view) {
      if (host) render(view, host);
    },
    remove,
  };
}
