// Builds every public entry as ESM (.mjs) + CJS (.cjs) + types (.d.mts/.d.cts).
// Dependencies and Node built-ins stay external; shared code lands in dist/chunks so that
// `servicepay` and `servicepay/core` share one engine module at run time.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import { transform as transformWithEsbuild } from 'esbuild';
import esbuild from 'rollup-plugin-esbuild';
import { dts } from 'rollup-plugin-dts';

const pkg = JSON.parse(readFileSync('./package.json', 'utf8'));

/** dist name -> source. */
export const entries = {
  index: 'src/react/index.ts',
  // The component's opt-in extras (the handoff, the remembered and featured banks), handed to
  // <ServicePay extras={extras}>: an entry of its own, so the root entry does not carry them.
  extras: 'src/react/extras.tsx',
  client: 'src/react/client.ts',
  // <ServicePay> on the service's own script (docs/going-live.md): a client module as a whole.
  hosted: 'src/hosted/index.ts',
  // The shipped catalogues (docs/languages.md): plain data, a default export each, for the
  // `locale` prop; built with the rest, so the words they share with the engine are one copy.
  'locales-en': 'src/core/locales/en/index.ts',
  'locales-cy': 'src/core/locales/cy/index.ts',
  core: 'src/core/index.ts',
  webhook: 'src/webhook/index.ts',
  'webhook-web': 'src/webhook/web.ts',
  // The stores import no driver: pg and redis (optional peers) are the merchant's, passed in.
  'webhook-postgres': 'src/webhook/stores/postgres.ts',
  'webhook-redis': 'src/webhook/stores/redis.ts',
  'webhook-testing': 'src/webhook/testing.ts',
  sandbox: 'src/sandbox/index.ts',
  'sandbox-cli': 'src/sandbox/cli/bin.ts',
  vanilla: 'src/vanilla/index.ts',
};

/**
 * Entries compiled against Preact (see preactAliases) and bundled with it, so that plain
 * pages need no React. Built on their own (below): they share no chunk with the React entry.
 */
const preactEntries = new Set(['vanilla']);
const reactEntries = Object.fromEntries(
  Object.entries(entries).filter(([name]) => !preactEntries.has(name)),
);
const preactInputs = Object.fromEntries([...preactEntries].map((name) => [name, entries[name]]));

/** Entries with no types of their own (executables, and the root entry's client half). */
const typelessEntries = new Set(['sandbox-cli', 'client']);
const typedEntries = Object.fromEntries(
  Object.entries(reactEntries).filter(([name]) => !typelessEntries.has(name)),
);

/**
 * React Server Components: a module that opens with 'use client' is a client module, and so are
 * all its exports. The root entry must not be one (a Server Component imports ServiceEvent from
 * it), so the component and the hook live behind src/react/client.ts, built as an entry of its
 * own (dist/client.*) whose output opens with the directive again (rollup drops module-level
 * directives). The root entry imports it as an external file, not as modules of its own graph:
 * otherwise rollup folds both into one chunk, and a file is client or not as a whole.
 */
const CLIENT_ENTRY = 'client';
const CLIENT_FILE = '\0servicepay-client';
function clientBoundary() {
  return {
    name: 'client-boundary',
    resolveId(id, importer) {
      if (id === './client' && importer?.endsWith('/src/react/index.ts')) {
        return { id: CLIENT_FILE, external: true };
      }
      return null;
    },
  };
}

const external = (id) =>
  id.startsWith('node:') ||
  builtinModules.includes(id) ||
  Object.keys({ ...pkg.peerDependencies, ...pkg.dependencies }).some(
    (dep) => id === dep || id.startsWith(`${dep}/`),
  );

/**
 * `import css from './x.css?raw'`: the stylesheet as a minified string (Vite does the same in
 * tests); `import script from './x.js?raw'`: a browser script the sandbox serves, as written.
 * With `theme`, theme.css's rules go to that selector alone (themeFor): for a file that draws
 * one of the two components.
 */
function rawText({ theme } = {}) {
  return {
    name: 'raw-text',
    resolveId(id, importer) {
      if (!/\.(css|js)\?raw$/.test(id)) return null;
      return new URL(id.slice(0, -4), `file://${importer}`).pathname + '?raw';
    },
    async load(id) {
      if (!/\.(css|js)\?raw$/.test(id)) return null;
      const file = id.slice(0, -4);
      const source = readFileSync(file, 'utf8');
      const text = theme && file.endsWith(THEME) ? themeFor(source, theme) : source;
      return `export default ${JSON.stringify(id.endsWith('.css?raw') ? await minifyCss(text) : text)};`;
    },
  };
}

/**
 * The stylesheet minified by esbuild's CSS minifier (a real parser, not regular expressions),
 * then custom properties' values, which esbuild keeps as written: CSS reads `--a: x, y` as
 * `--a:x,y` (the space after the colon is trimmed, one after a comma is not significant), and
 * strings are left as they are. No target: the CSS is shipped as written (container queries,
 * :focus-visible), only smaller.
 */
export async function minifyCss(css) {
  const { code } = await transformWithEsbuild(css, { loader: 'css', minify: true });
  return code
    .trim()
    .replace(/([;{]--[\w-]+):\s*((?:"[^"]*"|'[^']*'|[^;{}"'])*)/g, (_, name, value) => {
      const parts = value.split(/("[^"]*"|'[^']*')/);
      return `${name}:${parts.map((part, i) => (i % 2 ? part : part.replace(/,\s+/g, ','))).join('')}`;
    });
}

/**
 * The stylesheets also ship as files under their spec 4.3 names: in dist/css for pages that
 * link them from the package, and beside the standalone script for its script host.
 */
function copyStylesheets(dir, sheets = STYLESHEETS) {
  return {
    name: `stylesheets-to-${dir}`,
    writeBundle() {
      mkdirSync(dir, { recursive: true });
      for (const [sources, out, theme] of sheets) {
        const text = (src) => readFileSync(src, 'utf8');
        const parts = sources.map((src) =>
          theme && src === THEME ? themeFor(text(src), theme) : text(src),
        );
        writeFileSync(`${dir}/${out}`, parts.join(''));
      }
    },
  };
}

/** The theme: the custom properties (light, then dark) and the card every look starts from. */
const THEME = 'src/styles/theme.css';
/**
 * Each file and what it is made of: the Pay component's look is the theme, then its own rules.
 * A third item names the selector the theme's custom properties and card go to instead of the
 * components' own.
 */
const STYLESHEETS = [
  [[THEME, 'src/styles/service.css'], 'Service-0.4.css'],
  [['src/styles/tailwind.css'], 'Service-tailwind-0.1.css'],
];
/**
 * The package's own stylesheets, in dist/css only (no script host serves them): the placeholder
 * of servicepay/hosted, on the theme (docs/going-live.md). Its markup is neither component's,
 * and a third selector in theme.css would grow every component's injected stylesheet.
 */
const PACKAGE_STYLESHEETS = [
  ...STYLESHEETS,
  [[THEME, 'src/styles/hosted.css'], 'hosted.css', '.servicepay-placeholder'],
];

/**
 * theme.css with its rules (light, then dark) given to `selector` instead of the components'
 * `.service-root, .service-result`, and its opening comment, which names those, saying so; a
 * theme.css that no longer names them so fails the build, rather than shipping an unthemed
 * stylesheet.
 */
function themeFor(css, selector) {
  const components = /\.service-root,\s*\.service-result(?=\s*\{)/g;
  const found = css.match(components)?.length ?? 0;
  if (found !== 2 || !css.startsWith('/*')) {
    throw new Error(
      `rollup.config.mjs: theme.css should open with its comment and name ".service-root, .service-result" twice (light, dark), not ${found} times: update themeFor`,
    );
  }
  const comment = `/* ServicePay's theme (theme.css), given to ${selector}: the custom properties, light then\n   dark, and the card they draw. Theme through the custom properties. */`;
  return css.replace(/^\/\*[\s\S]*?\*\//, comment).replace(components, selector);
}

/**
 * The Preact builds compile src/react against Preact's core, not preact/compat: the component
 * uses only hooks and DOM props that mean the same in both (src/react/ServicePayView.tsx), so
 * `react` is Preact's hooks (src/vanilla/preact-hooks.ts, with useSyncExternalStore on them)
 * and nothing is translated. Exported for the tests, which bundle src/vanilla the same way
 * (test/vanilla/bundle.mjs).
 */
export const preactAliases = {
  react: fileURLToPath(new URL('src/vanilla/preact-hooks.ts', import.meta.url)),
  'react/jsx-runtime': 'preact/jsx-runtime',
};

/** What `id` is in the Preact builds, or null when it is not aliased. */
export function preactAlias(id) {
  return preactAliases[id] ?? null;
}

function preactBuild() {
  return {
    name: 'preact-build',
    resolveId(id, importer) {
      const target = preactAlias(id);
      if (!target) return null;
      return this.resolve(target, importer, { skipSelf: true, kind: 'import-statement' });
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
/**
 * The result page's script (window.ServiceResult), beside it: a file of its own, so that the
 * checkout's script keeps within its 16 KB and the result page loads no bank list.
 */
export const STANDALONE_RESULT_SCRIPT = `${STANDALONE}/Service-result-${pkg.componentVersion}.min.js`;
/**
 * The component's extras (the handoff panel and its QR encoder, the remembered and featured
 * banks), which the component's script loads beside itself when a page's options ask for them
 * (src/vanilla/load-extras-script.ts): a classic script cannot import a chunk.
 */
export const STANDALONE_EXTRAS_SCRIPT = `${STANDALONE}/Service-extras-${pkg.componentVersion}.min.js`;

/**
 * The extras file renders with the component script's Preact, which that script hands over as
 * `Service.runtime` (src/vanilla/standalone.ts lists what is in it): a second copy of Preact
 * would keep hooks state apart from the tree the extras are rendered in.
 */
const EXTRAS_RUNTIME = 'Service.runtime';
const runtimeModules = ['preact', 'preact/hooks', 'preact/jsx-runtime'];

/** In the standalone script, ./load-extras is the loader of that second file. */
function extrasFromScript() {
  return {
    name: 'extras-from-script',
    resolveId(id, importer) {
      if (id === './load-extras' && importer?.endsWith('/src/vanilla/service.ts')) {
        return fileURLToPath(new URL('src/vanilla/load-extras-script.ts', import.meta.url));
      }
      return null;
    },
  };
}

/**
 * `integrity.json` beside the standalone files: the Subresource Integrity hash (sha384) of each
 * script and stylesheet, for a page that pins a version (`<script integrity>`, or the
 * `integrity` option of servicepay/hosted). Written after the last of them.
 */
export const INTEGRITY_MANIFEST = `${STANDALONE}/integrity.json`;
function integrityManifest() {
  return {
    name: 'integrity-manifest',
    writeBundle() {
      const files = readdirSync(STANDALONE)
        .filter((f) => /\.(js|css)$/.test(f))
        .sort();
      const hashes = Object.fromEntries(
        files.map((f) => [
          f,
          `sha384-${createHash('sha384')
            .update(readFileSync(`${STANDALONE}/${f}`))
            .digest('base64')}`,
        ]),
      );
      writeFileSync(INTEGRITY_MANIFEST, `${JSON.stringify(hashes, null, 2)}\n`);
    },
  };
}

/**
 * `const` written as `let` in the standalone files, as esbuild (the minifier of size-limit and
 * of most bundlers) writes it and terser does not: the same block-scoped binding, never
 * reassigned (a `const` that is would already throw), two bytes shorter each (27 B gzipped in
 * the component's script).
 */
function constAsLet() {
  return {
    name: 'const-as-let',
    renderChunk(code) {
      const starts = [];
      const visit = (node) => {
        if (node?.type === 'VariableDeclaration' && node.kind === 'const') starts.push(node.start);
        for (const value of Object.values(node ?? {})) {
          if (Array.isArray(value)) value.forEach(visit);
          else if (typeof value?.type === 'string') visit(value);
        }
      };
      visit(this.parse(code));
      let out = '';
      let at = 0;
      for (const start of starts.sort((a, b) => a - b)) {
        if (code.slice(start, start + 5) !== 'const') throw new Error(`const-as-let at ${start}`);
        out += `${code.slice(at, start)}let`;
        at = start + 5;
      }
      return { code: out + code.slice(at), map: null };
    },
  };
}

/**
 * A classic script for `<script src>`: everything bundled, production mode, minified. `theme`:
 * the one component the script draws, whose selector alone its theme is given (rawText).
 */
const standalone = (input, file, more = [], output = {}, theme = undefined) => ({
  input,
  onwarn,
  // As in the module builds (below): the engine's modules have no side effects, so what they
  // build at load time for exports a script does not use is left out of it (the result page's
  // script carried the options' validation tables).
  treeshake: { moduleSideEffects: (id, isExternal) => isExternal || !id.includes('/src/core/') },
  plugins: [
    extrasFromScript(),
    preactBuild(),
    nodeResolve(),
    rawText({ theme }),
    replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': '"production"' } }),
    esbuild({ target: 'es2020', jsx: 'automatic' }),
    terser({
      // es2020, as esbuild emits. unsafe_arrows: a function expression that reads no `this`
      // becomes an arrow. Safe here: Preact calls `new` only on a component whose prototype
      // has `render` (a class), and nothing else news or reads the prototype of one.
      // keep_fargs: false drops unused trailing parameters (Preact's render's third): nothing
      // in these files reads a function's `length`.
      ecma: 2020,
      compress: { passes: 3, unsafe_arrows: true, keep_fargs: false },
      // Preact's own internal properties (`__k`, `__e`, ... and `__`, already mangled in its
      // published build) shortened again: every file that reads them is this one minified
      // file (the extras file renders with it through Service.runtime and touches none).
      mangle: { properties: { regex: /^__[a-zA-Z]?$/ } },
      // ascii_only: the shopper's words' curly quotes and ellipses as \u escapes, as esbuild
      // writes them: smaller gzipped (22 B in the component's script), and the file reads
      // the same whatever charset a server declares for it.
      format: { comments: /^!/, ascii_only: true },
    }),
    constAsLet(),
    ...more,
  ],
  output: { file, format: 'iife', banner: licence, ...output },
});

const onwarn = (warning, warn) => {
  // 'use client' is re-added through output.banner below.
  if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'SOURCEMAP_ERROR') return;
  warn(warning);
};

const banner = (chunk) => {
  if (!chunk.isEntry) return '';
  if (chunk.name === CLIENT_ENTRY || chunk.name === 'extras' || chunk.name === 'hosted')
    return "'use client';";
  return chunk.name === 'sandbox-cli' ? '#!/usr/bin/env node' : '';
};

/**
 * The binding of core's controllers to React (src/react/useController.ts, the client layout
 * effect) and the one stylesheet injector, which the component, the result page and the
 * opt-in extras share: a chunk of their own that imports React's hooks only. Left to rollup,
 * they join the result page's chunk, and the component's entry would carry its JSX runtime
 * import too (size-limit counts it). Core's dependency-free protocol.ts and console.ts (the id
 * rule, the one message prefix) are a chunk of their own: the injector's development report
 * imports them, and in the binding chunk they would bring React's import into every entry that
 * needs them without React (servicepay/core, servicepay/hosted: +150 B and +59 B).
 */
const bindingChunk = (id) =>
  /\/src\/react\/(useController|useClientLayoutEffect|useQuietSwitch|styles)\.ts$/.test(id)
    ? 'binding'
    : /\/src\/core\/(protocol|console)\.ts$/.test(id)
      ? 'protocol'
      : undefined;

export default [
  {
    input: reactEntries,
    external,
    onwarn,
    plugins: [
      clientBoundary(),
      rawText(),
      esbuild({ target: 'es2020', jsx: 'automatic' }),
      copyStylesheets('dist/css', PACKAGE_STYLESHEETS),
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
        manualChunks: bindingChunk,
        paths: { [CLIENT_FILE]: './client.mjs' },
        banner,
      },
      {
        dir: 'dist',
        format: 'cjs',
        entryFileNames: '[name].cjs',
        chunkFileNames: 'chunks/[name]-[hash].cjs',
        hoistTransitiveImports: false,
        manualChunks: bindingChunk,
        exports: 'named',
        paths: { [CLIENT_FILE]: './client.cjs' },
        banner,
      },
    ],
  },
  // The types: one TypeScript program, written twice (.d.mts and .d.cts).
  {
    input: typedEntries,
    external,
    onwarn,
    plugins: [rawText(), dts()],
    output: ['mts', 'cts'].map((ext) => ({
      dir: 'dist',
      format: 'es',
      entryFileNames: `[name].d.${ext}`,
      chunkFileNames: `chunks/[name]-[hash].d.${ext}`,
    })),
  },
  // servicepay/vanilla: ESM + CJS with Preact bundled in (no dependency, no React); the
  // bundler of the merchant's app still sees `process.env.NODE_ENV` and minifies.
  {
    input: preactInputs,
    onwarn,
    plugins: [
      preactBuild(),
      nodeResolve(),
      rawText(),
      esbuild({ target: 'es2020', jsx: 'automatic' }),
    ],
    output: [
      {
        dir: 'dist',
        format: 'es',
        entryFileNames: '[name].mjs',
        // The extras' chunk (src/vanilla/load-extras.ts) and what it shares with the entry.
        chunkFileNames: 'chunks/vanilla-[name]-[hash].mjs',
        banner: licence,
      },
      {
        dir: 'dist',
        format: 'cjs',
        entryFileNames: '[name].cjs',
        chunkFileNames: 'chunks/vanilla-[name]-[hash].cjs',
        exports: 'named',
        banner: licence,
      },
    ],
  },
  // Its types on their own too, so they share no chunk with the React entry's (which imports
  // React's types).
  {
    input: preactInputs,
    external,
    onwarn,
    plugins: [rawText(), dts()],
    output: ['mts', 'cts'].map((ext) => ({
      dir: 'dist',
      format: 'es',
      entryFileNames: `[name].d.${ext}`,
    })),
  },
  // The standalone script of spec 4.3: window.Service and window.ServiceEvent.
  standalone('src/vanilla/standalone.ts', STANDALONE_SCRIPT, [copyStylesheets(STANDALONE)]),
  // The result page's: window.ServiceResult. It draws the result page only, so its theme names
  // `.service-result` alone: the Pay component's `.service-root` is not in it (-23 B).
  standalone(
    'src/vanilla/standalone-result.ts',
    STANDALONE_RESULT_SCRIPT,
    [],
    {},
    '.service-result',
  ),
  // The component's extras: window.ServiceExtras, on the component script's Preact.
  {
    // Last of the standalone files: the manifest of their hashes.
    ...standalone(
      'src/vanilla/standalone-extras.ts',
      STANDALONE_EXTRAS_SCRIPT,
      [integrityManifest()],
      {
        globals: Object.fromEntries(runtimeModules.map((id) => [id, EXTRAS_RUNTIME])),
        // The QR encoder's import() (a chunk of its own in the module builds): one file here.
        inlineDynamicImports: true,
      },
    ),
    external: runtimeModules,
  },
];
