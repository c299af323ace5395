// The one page interface the journeys use, whatever drives the engine underneath: Firefox
// through puppeteer-core (WebDriver BiDi), WebKitGTK through
// selenium-webdriver (WebKit's own WebDriver). Each engine implements these few verbs with its
// client's own calls; what must behave the same everywhere (finding a control by its name,
// running axe, waiting) is written once here, as page scripts every engine runs alike.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { afterAll, expect } from 'vitest';

export type EngineName = 'firefox' | 'webkit';

/** The keys the journeys press: the bank step's keyboard model and nothing more. */
export type Key =
  | 'Tab'
  | 'Shift+Tab'
  | 'Enter'
  | 'Escape'
  | 'ArrowDown'
  | 'ArrowUp'
  | 'ArrowLeft'
  | 'ArrowRight'
  | 'Home'
  | 'End';

/** A control as a shopper names it: its role and its visible name (exact). */
export interface Control {
  role: 'button' | 'link' | 'heading';
  name: string;
  /**
   * The accessible name (aria-label) of the list or group it is in, for a name that is on more
   * than one control (a bank both among the popular banks and in the full list).
   */
  within?: string;
}

export interface PageOptions {
  /** prefers-color-scheme: dark, by whatever the engine offers (see each engine's file). */
  dark?: boolean;
  width?: number;
  height?: number;
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface EnginePage {
  readonly engine: EngineName;
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  /**
   * A page script, written as an expression (it may be a promise, which is awaited): strings,
   * not functions, so that each client gets exactly the same source and no client's way of
   * passing arguments matters. Build them with `script()`.
   */
  evaluate<T>(expression: string): Promise<T>;
  /** A real click by the client (trusted input events), on the visible control found by name. */
  click(control: Control): Promise<void>;
  press(key: Key): Promise<void>;
  /** The size of the layout viewport in CSS pixels (innerWidth × innerHeight). */
  setViewport(width: number, height: number): Promise<void>;
  /** A PNG of the page for review, in artifacts/screenshots/engines/. */
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

export interface Engine {
  readonly name: EngineName;
  open(options?: PageOptions): Promise<EnginePage>;
  stop(): Promise<void>;
}

/** `fn` applied to JSON arguments, as a page-script expression. `fn` must not close over anything. */
export function script<A extends unknown[], T>(fn: (...args: A) => T, ...args: A): string {
  return `(${fn.toString()})(...${JSON.stringify(args)})`;
}

/**
 * Finds the visible control with this role and exact name (its text, or aria-label), in the
 * element named `within` if given: the page side of `click` and `waitFor`. A hidden control
 * (display: none, visibility: hidden, zero size) is not found, as a shopper would not find it.
 */
export function findControl({ role, name, within }: Control): string {
  return script(
    (role: string, name: string, within: string | null) => {
      const selector = {
        button: 'button, input[type="submit"], [role="button"]',
        link: 'a[href], [role="link"]',
        heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
      }[role]!;
      const named = (e: Element) =>
        (e.getAttribute('aria-label') ?? e.textContent ?? '').replace(/\s+/g, ' ').trim() ===
          name || (e as HTMLInputElement).value === name;
      const shown = (e: Element) => {
        const box = e.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(e).visibility === 'visible';
      };
      const scope = within
        ? [...document.querySelectorAll('[aria-label]')].find(
            (e) => e.getAttribute('aria-label') === within,
          )
        : document;
      if (!scope) return null;
      return [...scope.querySelectorAll(selector)].find((e) => named(e) && shown(e)) ?? null;
    },
    role,
    name,
    within ?? null,
  );
}

/** Generous: these machines are shared and slow; a wait, never a timed assertion. */
export const WAIT = { timeout: 30_000, interval: 100 };

/** Waits until the visible control is on the page. */
export async function waitFor(page: EnginePage, control: Control): Promise<void> {
  await expect
    .poll(() => page.evaluate<boolean>(`${findControl(control)} !== null`), {
      ...WAIT,
      message: `${page.engine}: no visible ${control.role} "${control.name}"`,
    })
    .toBe(true);
}

/** Waits until the page's address matches. */
export async function waitForUrl(page: EnginePage, pattern: RegExp): Promise<void> {
  await expect.poll(() => page.url(), WAIT).toMatch(pattern);
}

/** The visible text of the page (or of the first element matching `selector`). */
export const textOf = (page: EnginePage, selector = 'body') =>
  page.evaluate<string | null>(
    script((s: string) => document.querySelector<HTMLElement>(s)?.innerText ?? null, selector),
  );

/** The focused element's text, trimmed. */
export const focusedText = (page: EnginePage) =>
  page.evaluate<string | null>(
    script(() => document.activeElement?.textContent?.replace(/\s+/g, ' ').trim() ?? null),
  );

const require = createRequire(import.meta.url);
let axeSource: Promise<string> | undefined;

/**
 * axe's violations on the page as it is now, colour contrast included, as `id: node count`.
 * axe's source goes in with the script itself, run by the client (not a <script> element), so
 * the pages' strict CSP stays on in every engine.
 */
export async function axeViolations(page: EnginePage): Promise<string[]> {
  axeSource ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  const source = await axeSource;
  return page.evaluate<string[]>(`(async () => {
    ${source}
    const { violations } = await window.axe.run(document, { resultTypes: ['violations'] });
    return violations.map((v) => v.id + ': ' + v.nodes.length);
  })()`);
}

/**
 * One engine for a test file's journeys and hosted journeys: started on the first `start()`,
 * stopped after the file (its own afterAll, registered here at the file's top level); each
 * describe block's `stop()` leaves it running. A Firefox launch costs seconds of CPU, and every
 * page still gets its own user context or session.
 */
export function onePerFile(start: () => Promise<Engine>): () => Promise<Engine> {
  let started: Promise<Engine> | undefined;
  afterAll(async () => (await started)?.stop());
  return async () => ({ ...(await (started ??= start())), stop: async () => {} });
}
