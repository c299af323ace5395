// @ts-check
// Bundles src/vanilla as the package ships it, compiled against Preact with the aliases of
// rollup.config.mjs (preactAlias), into the ESM file named by the first argument. Run by
// support.ts in a child process: esbuild refuses to load inside jsdom (its TextEncoder is
// another realm's). Unlike the builds, nothing fixes NODE_ENV here: the tests run the
// development files.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForBrowser } from '../helpers/browser-bundle.mjs';

const root = (/** @type {string} */ path) =>
  fileURLToPath(new URL(`../../${path}`, import.meta.url));

const bundle = await bundleForBrowser({
  framework: 'preact',
  entryPoints: [root('src/vanilla/index.ts')],
  platform: 'browser',
  target: 'es2020',
});
const out =
  process.argv[2] ?? join(dirname(root('package.json')), 'node_modules/.cache/vanilla.mjs');
writeFileSync(out, bundle);
