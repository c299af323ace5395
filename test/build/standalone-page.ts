// What both standalone scripts' tests (standalone.test.ts, standalone-result.test.ts) need: the
// built files as users receive them, and a plain page that loads one with a <script> tag.
import { readFile } from 'node:fs/promises';
import { JSDOM } from 'jsdom';

export const dist = new URL('../../dist/', import.meta.url);

/** A built file, as text. */
export const readDist = (file: string) => readFile(new URL(file, dist), 'utf8');

/** The package's version (the licence banner) and the component's (the scripts' names). */
export const { version, componentVersion } = JSON.parse(
  await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string; componentVersion: string };

/**
 * A page at `url` whose body is `body`, loading dist/standalone/`script` as a plain page does
 * (with `nonce` on its tag when given); `added` lists the globals the script defined.
 */
export async function pageWithScript(script: string, body: string, url: string, nonce = '') {
  const dom = new JSDOM(`<!doctype html><html><head></head><body>${body}</body></html>`, {
    runScripts: 'dangerously',
    url,
  });
  const before = new Set(Object.getOwnPropertyNames(dom.window));
  const tag = dom.window.document.createElement('script');
  if (nonce) tag.setAttribute('nonce', nonce);
  tag.textContent = await readDist(`standalone/${script}`);
  dom.window.document.head.append(tag);
  const added = Object.getOwnPropertyNames(dom.window).filter((name) => !before.has(name));
  return { dom, window: dom.window as unknown as Window & typeof globalThis, added };
}
