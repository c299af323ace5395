// @ts-check
// The one way tests bundle the sources for a browser page, with esbuild: the stylesheets
// imported as `./x.css?raw` (minified, as rollup.config.mjs's rawText plugin ships them) and,
// for the Preact builds, `react` resolved as rollup.config.mjs's preactBuild resolves it.
// Plain JavaScript so that test/vanilla/bundle.mjs, run by bare Node, can use it too.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { minifyCss, preactAlias, preactAliases } from '../../rollup.config.mjs';

/** The stylesheets' minifier, rollup.config.mjs's (for its own test). */
export { minifyCss };

/**
 * `import css from './x.css?raw'` and `import script from './x.js?raw'`, as rollup.config.mjs's
 * rawText plugin builds them (a stylesheet minified, a script as written). @type {import('esbuild').Plugin}
 */
export const rawText = {
  name: 'raw-text',
  setup(builder) {
    builder.onResolve({ filter: /\.(css|js)\?raw$/ }, ({ path, resolveDir }) => ({
      path: join(resolveDir, path.slice(0, -'?raw'.length)),
      namespace: 'raw-text',
    }));
    builder.onLoad({ filter: /.*/, namespace: 'raw-text' }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      const contents = path.endsWith('.css') ? await minifyCss(text) : text;
      return { contents: `export default ${JSON.stringify(contents)};`, loader: 'js' };
    });
  },
};

/**
 * `react` and `react/jsx-runtime` as rollup.config.mjs's preactBuild resolves them, as imports:
 * Preact's ES build, the one copy the component renders with. @type {import('esbuild').Plugin}
 */
export const preactBuild = {
  name: 'preact-build',
  setup(builder) {
    const ids = Object.keys(preactAliases).map((id) => id.replace(/[/.]/g, '\\$&'));
    builder.onResolve({ filter: new RegExp(`^(${ids.join('|')})$`) }, ({ path, importer }) => {
      const target = /** @type {string} */ (preactAlias(path));
      return builder.resolve(target, { kind: 'import-statement', resolveDir: dirname(importer) });
    });
  },
};

/**
 * One ES module for a browser page from `options` (esbuild's: `stdin` or `entryPoints`,
 * `define`, ...), bundled with React, or with Preact as the Preact builds use it.
 *
 * @param {import('esbuild').BuildOptions & { framework?: 'react' | 'preact' }} options
 * @returns {Promise<string>}
 */
export async function bundleForBrowser({ framework = 'react', ...options }) {
  const result = await build({
    bundle: true,
    format: 'esm',
    jsx: 'automatic',
    ...options,
    plugins: [...(framework === 'preact' ? [preactBuild] : []), rawText],
    write: false,
    logLevel: 'silent',
  });
  const [output] = /** @type {import('esbuild').OutputFile[]} */ (result.outputFiles);
  return /** @type {import('esbuild').OutputFile} */ (output).text;
}
