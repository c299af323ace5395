/**
 * The sandbox pages' one way to build HTML: an auto-escaping tagged template (Hono's `html`
 * helper is the model). Every interpolated value is escaped unless it is itself `html` output
 * or marked with `raw()`, so a payment's reference or a receiver's answer is text whatever the
 * page's author remembers. Pages are typed `Html`, not `string`, so an unescaped string cannot
 * reach a page by accident.
 */

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values (and XML: the SVG icons). */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** Markup that is safe as it is: the output of `html`, or what `raw()` vouches for. */
export class Html {
  readonly #markup: string;
  constructor(markup: string) {
    this.#markup = markup;
  }
  toString(): string {
    return this.#markup;
  }
}

/**
 * What a page may interpolate: markup, text (escaped), numbers, lists of these (joined with
 * nothing), and nothing at all (null, undefined, false: for `${cond && html`…`}`).
 */
export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.toString();
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(value);
}

/** The tag: `html`<p>${text}</p>`` escapes `text`, keeps nested `html` as markup. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let markup = strings[0]!;
  for (let i = 0; i < values.length; i++) markup += render(values[i]!) + strings[i + 1]!;
  return new Html(markup);
}

/**
 * The only way out: markup used as it is. For the few fixed fragments that are not literals
 * of a template; never for anything a shopper, a merchant or a receiver wrote.
 */
export function raw(markup: string): Html {
  return new Html(markup);
}

/** Items joined by a separator that is itself markup (html`<br>`, html`\n`). */
export function joinHtml(items: readonly HtmlValue[], separator?: Html): Html {
  return new Html(items.map(render).join(separator?.toString() ?? ''));
}
