// The sandbox pages' html tag (src/sandbox/pages/html.ts): what it escapes, and its one way out.
import { describe, expect, it } from 'vitest';
import { html, joinHtml, raw } from '../../../src/sandbox/pages/html';

const HOSTILE = `"><img src=x onerror=alert(1)>'&`;
const ESCAPED = '&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#39;&amp;';

describe('the html tag', () => {
  it('escapes text and numbers, in content and in attributes', () => {
    expect(String(html`<p title="${HOSTILE}">${HOSTILE} ${12.5}</p>`)).toBe(
      `<p title="${ESCAPED}">${ESCAPED} 12.5</p>`,
    );
  });

  it('keeps its own output as markup, nested and in lists, and drops null, undefined and false', () => {
    const items = ['<a>', 'b'].map((text) => html`<li>${text}</li>`);
    expect(String(html`<ul>${items}${null}${undefined}${false}</ul>`)).toBe(
      '<ul><li>&lt;a&gt;</li><li>b</li></ul>',
    );
    expect(String(joinHtml(items, html`<br>`))).toBe('<li>&lt;a&gt;</li><br><li>b</li>');
  });

  it('lets markup through only by raw(), and a string that looks like markup is still text', () => {
    expect(String(html`${raw('<b>kept</b>')}`)).toBe('<b>kept</b>');
    expect(String(html`${String(html`<b>x</b>`)}`)).toBe('&lt;b&gt;x&lt;/b&gt;');
  });
});
