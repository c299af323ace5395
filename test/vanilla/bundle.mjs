// @ts-check
// Bundles src/vanilla as the package ships it, compiled against Preact with the aliases of
// rollup.config.mjs (preactAlias), into the ESM file named by the first argument. Run by
// support.ts in a child process: esbuild refuses to load inside jsdom (its TextEncoder is
// another realm's). Unlike the builds, nothing fixes NODE_ENV here: the tests run the
// development files, use-sync-external-store's shim included.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { minifyCss, preactAlias, preactAliases } from '../../rollup.config.mjs';

const root = (/** @type {string} */ path) =>
  fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** `import css from './x.css?raw'`, as rollup.config.mjs's rawCss plugin builds it. @type {import('esbuild').Plugin} */
const rawCss = {
  name: 'raw-css',
  setup(builder) {
    builder.onResolve({ filter: /\.css\?raw$/ }, ({ path, resolveDir }) => ({
      path: join(resolveDir, path.slice(0, -'?raw'.length)),
      namespace: 'raw-css',
    }));
    builder.onLoad({ filter: /.*/, namespace: 'raw-css' }, async ({ path }) => ({
      contents: `export default ${JSON.stringify(await minifyCss(readFileSync(path, 'utf8')))};`,
      loader: 'js',
    }));
  },
};

/**
 * `react` and `react/jsx-runtime` as rollup.config.mjs's preactBuild resolves them (esbuild's
 * `alias` cannot tell importers apart). Always as an import: Preact's ES build, so that the
 * shim's require() gets the same Preact the component renders with. @type {import('esbuild').Plugin}
 */
const preact = {
  name: 'preact-build',
  setup(builder) {
    const ids = Object.keys(preactAliases).map((id) => id.replace(/[/.]/g, '\\$&'));
    builder.onResolve({ filter: new RegExp(`^(${ids.join('|')})$`) }, ({ path, importer }) => {
      const target = preactAlias(path, importer);
      return builder.resolve(target, { kind: 'import-statement', resolveDir: dirname(importer) });
    });
  },
};

const result = await build({
  entryPoints: [root('src/vanilla/index.ts')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2020',
  jsx: 'automatic',
  write: false,
  plugins: [preact, rawCss],
  logLevel: 'silent',
});
const out =
  process.argv[2] ?? join(dirname(root('package.json')), 'node_modules/.cache/vanilla.mjs');
writeFileSync(out, result.outputFiles[0].text);
