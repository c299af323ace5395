// @vitest-environment node
// The stylesheets' minifier (rollup.config.mjs): esbuild's, then custom properties' values,
// which esbuild keeps as written.
import { describe, expect, it } from 'vitest';
import { minifyCss } from '../helpers/browser-bundle.mjs';

describe('minifyCss', () => {
  it("drops the spaces CSS ignores in custom properties' values, and keeps strings as written", async () => {
    const css = `.a {
  --font: system-ui, 'Segoe UI, Web', sans-serif;
  --empty-ish:  1px;
  --quote: "a, b";
  font: 1rem var(--font, serif);
}`;
    expect(await minifyCss(css)).toBe(
      '.a{--font:system-ui,"Segoe UI, Web",sans-serif;--empty-ish:1px;--quote:"a, b";font:1rem var(--font, serif)}',
    );
  });
});
