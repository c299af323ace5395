// Builds every public entry as ESM (.mjs) + CJS (.cjs) + types (.d.mts/.d.cts).
// Dependencies and Node built-ins stay external; shared code lands in dist/chunks so that
// `servicepay` and `servicepay/core` share one engine module at run time.
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { dts } from 'rollup-plugin-dts';

const pkg = JSON.parse(readFileSync('./package.json', 'utf8'));

/** dist name -> source. */
export const entries = {
  index: 'src/react/index.ts',
  core: 'src/core/index.ts',
  webhook: 'src/webhook/index.ts',
  'webhook-web': 'src/webhook/web.ts',
  // The stores import no driver: pg and redis (optional peers) are the merchant's, passed in.
  'webhook-postgres': 'src/webhook/postgres.ts',
  'webhook-redis': 'src/webhook/redis.ts',
  'webhook-testing': 'src/webhook/testing.ts',
  sandbox: 'src/sandbox/index.ts',
  'sandbox-cli': 'src/sandbox/cli.ts',
  vanilla: 'src/vanilla/index.ts',
};

/**
 * Entries compiled against Preact's React-compatible layer and bundled with it, so that plain
 * pages need no React. Built on their own (below): they share no chunk with the React entry.
 */
const preactEntries = new Set(['vanilla']);
const reactEntries = Object.fromEntries(
  Object.entries(entries).filter(([name]) => !preactEntries.has(name)),
);
const preactInputs = Object.fromEntries([...preactEntries].map((name) => [name, entries[name]]));

/** Entries with no types of their own (executables). */
const typelessEntries = new Set(['sandbox-cli']);
const typedEntries = Object.fromEntries(
  Object.entries(reactEntries).filter(([name]) => !typelessEntries.has(name)),
);

/** Entries whose output must start with the 'use client' directive (React Server Components). */
const clientEntries = new Set(['index']);

const external = (id) =>
  id.startsWith('node:') ||
  builtinModules.includes(id) ||
  Object.keys({ ...pkg.peerDependencies, ...pkg.dependencies }).some(
    (dep) => id === dep || id.startsWith(`${dep}/`),
  );

/** `import css from './x.css?raw'`: the stylesheet as a minified string (Vite does the same in tests). */
function rawCss() {
  return {
    name: 'raw-css',
    resolveId(id, importer) {
      if (!id.endsWith('.css?raw')) return null;
      return new URL(id.slice(0, -4), `file://${importer}`).pathname + '?raw';
    },
    load(id) {
      if (!id.endsWith('.css?raw')) return null;
      return `export default ${JSON.stringify(minifyCss(readFileSync(id.slice(0, -4), 'utf8')))};`;
    },
  };
}

export function minifyCss(css) {
  return (
    css
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\s+/g, ' ')
      .replace(/\s*([{};,>])\s*/g, '$1')
      // Not around every ':' — `.a :focus` (descendant) differs from `.a:focus`.
      .replace(/:\s+/g, ':')
      .replace(/;}/g, '}')
      // `[data-state='initiating']`: an identifier needs no quotes.
      .replace(/=(['"])(-?[A-Za-z_][\w-]*)\1\]/g, '=$2]')
      // `0.875rem`, `opacity:0.55`: no leading zero.
      .replace(/([\s:,(])0\.(\d)/g, '$1.$2')
      .replace(/@media \(/g, '@media(')
      .trim()
  );
}

/**
 * The stylesheets also ship as files under their spec 4.3 names: in dist/css for pages that
 * link them from the package, and beside the standalone script for its script host.
 */
function copyStylesheets(dir) {
  return {
    name: `stylesheets-to-${dir}`,
    writeBundle() {
      mkdirSync(dir, { recursive: true });
      for (const [src, out] of STYLESHEETS)
        writeFileSync(`${dir}/${out}`, readFileSync(src, 'utf8'));
    },
  };
}

const STYLESHEETS = [
  ['src/styles/service.css', 'Service-0.4.css'],
  ['src/styles/tailwind.css', 'Service-tailwind-0.1.css'],
];

/**
 * The React API that src/react uses, from preact/compat: the same component compiled against a
 * runtime of a few kilobytes. Exported for the tests, which bundle src/vanilla the same way.
 */
export const preactAliases = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/compat/jsx-runtime',
};

function preactCompat() {
  return {
    name: 'preact-compat',
    resolveId(id, importer, options) {
      const target = preactAliases[id];
      return target ? this.resolve(target, importer, { ...options, skipSelf: true }) : null;
    },
  };
}

const licence = `/*! servicepay ${pkg.version} | MIT | includes Preact (MIT, https://preactjs.com) */`;

/** The standalone script's directory (spec 4.3), with the stylesheets beside the script. */
const STANDALONE = 'dist/standalone';
/**
 * Named by the component's version (spec 4.3 shows 0.9.3), kept in package.json as
 * `componentVersion`: the package's own version moves with its API (0.10.0 changed the
 * webhook store contract), while pages keep loading the component version they pinned.
 */
export const STANDALONE_SCRIPT = `${STANDALONE}/Service-${pkg.componentVersion}.min.js`;

const onwarn = (warning, warn) => {
  // 'use client' is re-added through output.banner below.
  if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'SOURCEMAP_ERROR') return;
  warn(warning);
};

const banner = (chunk) => {
  if (!chunk.isEntry) return '';
  if (clientEntries.has(chunk.name)) return "'use client';";
  return chunk.name === 'sandbox-cli' ? '#!/usr/bin/env node' : '';
};

export default [
  {
    input: reactEntries,
    external,
    onwarn,
    plugins: [
      rawCss(),
      esbuild({ target: 'es2020', jsx: 'automatic' }),
      copyStylesheets('dist/css'),
    ],
    // The engine's modules have no side effects, but some build tables at load time, which
    // rollup cannot prove pure; without this it keeps a bare `import './chunks/validation…'`
    // in the React entry to preserve load order, and bundlers warn about it.
    treeshake: {
      moduleSideEffects: (id, isExternal) => isExternal || !id.includes('/src/core/'),
    },
    output: [
      {
        dir: 'dist',
        format: 'es',
        entryFileNames: '[name].mjs',
        chunkFileNames: 'chunks/[name]-[hash].mjs',
        // An entry imports only the chunks it uses (size-limit and tree-shakers see no extras).
        hoistTransitiveImports: false,
        banner,
      },
      {
        dir: 'dist',
        format: 'cjs',
        entryFileNames: '[name].cjs',
        chunkFileNames: 'chunks/[name]-[hash].cjs',
        hoistTransitiveImports: false,
        exports: 'named',
        banner,
      },
    ],
  },
  ...['mts', 'cts'].map((ext) => ({
    input: typedEntries,
    external,
    onwarn,
    plugins: [rawCss(), dts()],
    output: {
      dir: 'dist',
      format: 'es',
      entryFileNames: `[name].d.${ext}`,
      chunkFileNames: `chunks/[name]-[hash].d.${ext}`,
    },
  })),
  // servicepay/vanilla: ESM + CJS with Preact bundled in (no dependency, no React); the
  // bundler of the merchant's app still sees `process.env.NODE_ENV` and minifies.
  {
    input: preactInputs,
    onwarn,
    plugins: [
      preactCompat(),
      nodeResolve(),
      rawCss(),
      esbuild({ target: 'es2020', jsx: 'automatic' }),
    ],
    output: [
      { dir: 'dist', format: 'es', entryFileNames: '[name].mjs', banner: licence },
      {
        dir: 'dist',
        format: 'cjs',
        entryFileNames: '[name].cjs',
        exports: 'named',
        banner: licence,
      },
    ],
  },
  // Its types on their own too, so they share no chunk with the React entry's (which imports
  // React's types).
  ...['mts', 'cts'].map((ext) => ({
    input: preactInputs,
    external,
    onwarn,
    plugins: [rawCss(), dts()],
    output: { dir: 'dist', format: 'es', entryFileNames: `[name].d.${ext}` },
  })),
  // The standalone script of spec 4.3: window.Service and window.ServiceEvent, everything
  // bundled, production mode, minified.
  {
    input: 'src/vanilla/standalone.ts',
    onwarn,
    plugins: [
      preactCompat(),
      nodeResolve(),
      rawCss(),
      replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': '"production"' } }),
      esbuild({ target: 'es2020', jsx: 'automatic' }),
      terser({ compress: { passes: 2 }, format: { comments: /^!/ } }),
      copyStylesheets(STANDALONE),
    ],
    output: { file: STANDALONE_SCRIPT, format: 'iife', banner: licence },
  },
];
