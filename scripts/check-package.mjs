// `npm run check:package` (part of `npm test`, after the build): checks the package as npm
// publishes it — the packed tarball, not the work tree (CONTRIBUTING.md, "Release checks").
//
//   1. Contents: only dist/ and docs/ plus package.json, README.md, CHANGELOG.md and LICENSE;
//      every file that package.json names (exports, bin, main, module, types, typesVersions) is
//      in it; every shipped dist file is reachable from one of those (no stale chunk of an
//      earlier build, no unused output). The docs ship so that the README's links, and every
//      page a message of the library names (`docs/….md`), open inside node_modules/servicepay:
//      each relative link of a shipped Markdown file, and each page the built code names, must
//      be a shipped file (links to what only the repository has, examples/ or CONTRIBUTING.md,
//      are written as the repository's address).
//   2. publint --strict on the tarball: every message, suggestions included, fails the check.
//   3. @arethetypeswrong/cli on the tarball, for every JavaScript entry of `exports`, under
//      every module resolution it models (node10, node16 from CJS and from ESM, bundler).
//   4. sideEffects: exactly the stylesheets and the standalone script. Each entry, imported in
//      a fresh Node process with a DOM (jsdom) and as ESM and CJS, must leave no trace (no new
//      or replaced global, no DOM change, no timer or listener), which is what `sideEffects`
//      promises bundlers that drop an unused import; the standalone script must leave one
//      (window.Service), which proves the probe can see a side effect.
//   5. 'use client': the component's files (dist/client.mjs and dist/client.cjs) have the
//      directive as their first statement, so React Server Components frameworks treat them as
//      client modules (rollup drops the source's directive; the build re-adds it as a banner),
//      and the root entry (dist/index.*) has none, so its constants are plain values there.
//
// Exits non-zero with every problem listed. The tarball comes from scripts/pack.mjs (packed once
// per content, shared with the package smoke tests); it is unpacked into a temp dir, removed after.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { packOnce } from './pack.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(repo, 'node_modules', '.bin', name);
const requireFromRepo = createRequire(join(repo, 'package.json'));

/** Files beside dist/: what npm always adds (README, LICENSE) and the changelog (`files`). */
const TOP_LEVEL = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'];
/** What `sideEffects` must say: stylesheets, and the classic script that defines window.Service. */
const SIDE_EFFECTS = ['*.css', './dist/standalone/*.js'];
/** The components' files as packed, each of which must open with 'use client'. */
const CLIENT_ENTRIES = ['dist/client.mjs', 'dist/client.cjs', 'dist/hosted.mjs', 'dist/hosted.cjs'];
/** The root entry's files, which must not (Server Components import its constants). */
const SERVER_SAFE_ENTRIES = ['dist/index.mjs', 'dist/index.cjs'];
/**
 * The directive as the first statement: only whitespace and comments may come before it (a
 * directive prologue), then `'use client';` or `"use client";`.
 */
const USE_CLIENT_FIRST = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*(['"])use client\1;/;

const problems = [];
const fail = (area, message) => problems.push(`${area}: ${message}`);
const started = Date.now();

const work = mkdtempSync(join(tmpdir(), 'servicepay-check-package-'));
try {
  const { tarball, files } = packOnce();
  console.log(`packed ${basename(tarball)}: ${files.length} files`);
  const pkgDir = join(work, 'node_modules', 'servicepay');
  mkdirSync(pkgDir, { recursive: true });
  execFileSync('tar', ['xzf', tarball, '-C', pkgDir, '--strip-components=1']);
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));

  checkContents(pkg, files, pkgDir);
  checkClientDirective(files, pkgDir);
  await checkPublint(tarball);
  checkTypes(pkg, tarball);
  checkSideEffects(pkg, files, work);
} finally {
  rmSync(work, { recursive: true, force: true });
}

const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (problems.length > 0) {
  console.error(`\ncheck:package found ${problems.length} problem(s):`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.log(`\ncheck:package: the tarball is clean (${seconds} s)`);

/** Every string target in a package.json field (exports conditions, bin, typesVersions, ...). */
function targets(value) {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(targets);
  if (value && typeof value === 'object') return Object.values(value).flatMap(targets);
  return [];
}

/**
 * Every relative link of a shipped Markdown file, and every `docs/….md` the built code names
 * in a message, leads to a shipped file: the package read offline is whole.
 */
function checkLinks(files, pkgDir) {
  const area = 'links';
  const markdown = files.filter((f) => f.endsWith('.md'));
  if (!markdown.some((f) => f.startsWith('docs/'))) fail(area, 'docs/ is not shipped');
  for (const file of markdown) {
    const text = readFileSync(join(pkgDir, file), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:|^#/i.test(target)) continue; // an address, or this page's anchor
      const path = posix.normalize(posix.join(posix.dirname(file), target.split('#')[0]));
      const shipped = files.includes(path) || files.some((f) => f.startsWith(`${path}/`));
      if (!shipped) fail(area, `${file} links to ${target}, which is not in the package`);
    }
  }
  for (const file of files.filter((f) => /^dist\/.*\.(c|m)?js$/.test(f))) {
    const text = readFileSync(join(pkgDir, file), 'utf8');
    for (const [page] of text.matchAll(/\bdocs\/[a-z0-9-]+\.md/g)) {
      if (!files.includes(page)) fail(area, `${file} names ${page}, which is not in the package`);
    }
  }
}

function checkContents(pkg, files, pkgDir) {
  const area = 'contents';
  for (const file of files) {
    if (!TOP_LEVEL.includes(file) && !/^(dist|docs)\//.test(file)) {
      fail(area, `${file} is shipped; only dist/, docs/ and ${TOP_LEVEL.join(', ')} should be`);
    }
  }
  for (const file of TOP_LEVEL) if (!files.includes(file)) fail(area, `${file} is not shipped`);
  checkLinks(files, pkgDir);

  // Everything package.json points at, with `./standalone/*`-style patterns expanded.
  const named = [
    ...targets(pkg.exports),
    ...targets(pkg.bin),
    ...targets(pkg.typesVersions),
    ...[pkg.main, pkg.module, pkg.types].filter(Boolean),
  ].map((target) => posix.normalize(target));
  const roots = new Set();
  for (const target of named) {
    if (target.includes('*')) {
      const [before, after] = target.split('*');
      const matched = files.filter((f) => f.startsWith(before) && f.endsWith(after));
      if (matched.length === 0) fail(area, `the pattern ${target} matches no shipped file`);
      matched.forEach((f) => roots.add(f));
    } else if (files.includes(target)) {
      roots.add(target);
    } else {
      fail(area, `package.json names ${target}, which is not shipped`);
    }
  }

  // The script is named by the component's version, not the package's (rollup.config.mjs).
  const version = pkg.componentVersion;
  for (const required of [
    'dist/css/Service-0.4.css',
    'dist/css/Service-tailwind-0.1.css',
    'dist/css/hosted.css',
    `dist/standalone/Service-${version}.min.js`,
    'dist/standalone/Service-0.4.css',
    'dist/standalone/Service-tailwind-0.1.css',
  ]) {
    if (!files.includes(required)) fail(area, `${required} is missing`);
  }

  for (const [name, file] of Object.entries(pkg.bin ?? {})) {
    const path = posix.normalize(/** @type {string} */ (file));
    if (files.includes(path) && !readFileSync(join(pkgDir, path), 'utf8').startsWith('#!')) {
      fail(area, `the ${name} command (${path}) has no #! line`);
    }
  }

  // Follow relative imports from the named files: whatever is never reached is dead weight,
  // typically a chunk left in dist/ by an earlier build.
  const reached = new Set();
  const visit = (file) => {
    if (reached.has(file) || !files.includes(file)) return;
    reached.add(file);
    if (!/\.(mjs|cjs|js|d\.mts|d\.cts)$/.test(file)) return;
    const code = readFileSync(join(pkgDir, file), 'utf8');
    const imports = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
    for (const [, spec] of code.matchAll(imports)) {
      let target = posix.join(posix.dirname(file), spec);
      // Declaration files import their neighbours by the runtime name (x.mjs -> x.d.mts).
      if (/\.d\.[mc]ts$/.test(file)) target = target.replace(/\.(m|c)js$/, '.d.$1ts');
      if (!files.includes(target)) fail(area, `${file} imports ${spec}, which is not shipped`);
      visit(target);
    }
  };
  roots.forEach(visit);
  const unreached = files.filter((f) => f.startsWith('dist/') && !reached.has(f));
  for (const file of unreached) {
    fail(area, `${file} is shipped but nothing reaches it (stale build output? unused file?)`);
  }
}

function checkClientDirective(files, pkgDir) {
  const area = "'use client'";
  let ok = 0;
  for (const file of CLIENT_ENTRIES) {
    if (!files.includes(file)) {
      fail(area, `${file} is not shipped, so it cannot carry the directive`);
      continue;
    }
    const code = readFileSync(join(pkgDir, file), 'utf8');
    if (!USE_CLIENT_FIRST.test(code)) {
      const start = JSON.stringify(code.slice(0, 60));
      fail(
        area,
        `${file} does not start with the 'use client'; directive as its first statement (it starts ${start}); React Server Components frameworks would treat the component as server code`,
      );
    } else ok++;
  }
  for (const file of SERVER_SAFE_ENTRIES) {
    if (!files.includes(file)) continue;
    if (readFileSync(join(pkgDir, file), 'utf8').includes('use client')) {
      fail(
        area,
        `${file} carries 'use client': a Server Component importing ServiceEvent from 'servicepay' would get a client reference instead of the object`,
      );
    }
  }
  console.log(
    `'use client': ${ok}/${CLIENT_ENTRIES.length} component files open with it; the root entry is a plain module`,
  );
}

async function checkPublint(tarball) {
  const data = readFileSync(tarball);
  const { messages, pkg } = await publint({
    pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
    strict: true,
    level: 'suggestion',
  });
  console.log(
    `publint --strict: ${messages.length === 0 ? 'all good' : `${messages.length} message(s)`}`,
  );
  for (const message of messages) {
    fail('publint', `${message.type}: ${formatMessage(message, pkg, { color: false })}`);
  }
}

/**
 * attw on the tarball, entry by entry. The entry list is taken from `exports`: the entries
 * that are JavaScript modules. The stylesheets, the standalone script files (a classic script,
 * no module) and package.json have no types to check, so they are left out by selecting the
 * entries rather than by ignoring any rule. No rule is ignored and the profile is the strictest
 * one: node10 resolution (TypeScript's `moduleResolution: node`, still common) is served by
 * `typesVersions`.
 */
function checkTypes(pkg, tarball) {
  const entries = Object.entries(pkg.exports)
    .filter(([, value]) => typeof value === 'object' && value !== null)
    .map(([key]) => key);
  console.log(`attw: ${entries.join(' ')}`);
  const result = spawnSync(
    bin('attw'),
    [tarball, '--profile', 'strict', '--format', 'table-flipped', '--entrypoints', ...entries],
    { encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } },
  );
  console.log(`${result.stdout}${result.stderr}`.trim());
  if (result.status !== 0) fail('attw', `problems found (above), exit code ${result.status}`);
}

function checkSideEffects(pkg, files, work) {
  const area = 'sideEffects';
  if (JSON.stringify(pkg.sideEffects) !== JSON.stringify(SIDE_EFFECTS)) {
    fail(area, `is ${JSON.stringify(pkg.sideEffects)}, expected ${JSON.stringify(SIDE_EFFECTS)}`);
  }
  const css = files.filter((f) => f.endsWith('.css'));
  if (css.length === 0) fail(area, 'no stylesheet is shipped');
  const script = `dist/standalone/Service-${pkg.componentVersion}.min.js`;

  // The probes import by package name, so Node resolves through `exports` as an app would.
  for (const dep of ['react', 'react-dom']) {
    symlinkSync(
      dirname(requireFromRepo.resolve(`${dep}/package.json`)),
      join(work, 'node_modules', dep),
    );
  }
  const jsdom = requireFromRepo.resolve('jsdom');
  const entries = Object.entries(pkg.exports)
    .filter(([, value]) => typeof value === 'object' && value !== null)
    .map(([key]) => key.replace(/^\./, 'servicepay'));
  const probes = [
    ...entries.flatMap((specifier) => [
      { label: `import '${specifier}'`, load: `await import(${JSON.stringify(specifier)})` },
      { label: `require('${specifier}')`, load: `require(${JSON.stringify(specifier)})` },
    ]),
    {
      label: `<script src="${script.slice('dist/standalone/'.length)}">`,
      load: `window.eval(readFileSync(${JSON.stringify(join(work, 'node_modules/servicepay', script))}, 'utf8'))`,
      expect: ['Service', 'ServiceEvent'],
    },
  ];
  const results = sideEffectsOf(probes, jsdom, work);
  let clean = 0;
  probes.forEach((probe, i) => {
    const traces = results[i] ?? ['not run'];
    const expected = probe.expect ?? [];
    const unexpected = traces.filter((t) => !expected.some((name) => t === `global ${name} added`));
    const missing = expected.filter((name) => !traces.includes(`global ${name} added`));
    if (unexpected.length > 0)
      fail(area, `${probe.label} has side effects: ${unexpected.join('; ')}`);
    if (missing.length > 0) fail(area, `${probe.label} did not define ${missing.join(', ')}`);
    if (unexpected.length === 0 && missing.length === 0) clean++;
  });
  console.log(
    `sideEffects: ${clean}/${probes.length} probes as expected (${entries.length} entries as ESM and CJS, the standalone script)`,
  );
}

/**
 * Loads each probe in turn in one fresh Node process with a jsdom window, and returns, per
 * probe, what it changed. Modules shared by two entries run once, with the first: a side
 * effect of a shared chunk is still seen, under the first entry that loads it.
 */
function sideEffectsOf(probes, jsdomPath, cwd) {
  const program = `
    import { createRequire } from 'node:module';
    import { readFileSync } from 'node:fs';
    const require = createRequire(${JSON.stringify(join(cwd, 'probe.cjs'))});
    const { JSDOM } = require(${JSON.stringify(jsdomPath)});
    const { window } = new JSDOM('<!doctype html><html><head></head><body></body></html>', {
      url: 'https://shop.example/',
      runScripts: 'outside-only',
    });
    // A browser-like global scope: the window's properties that Node lacks.
    for (const key of Object.getOwnPropertyNames(window)) {
      if (!(key in globalThis)) {
        Object.defineProperty(globalThis, key, { configurable: true, get: () => window[key] });
      }
    }
    // Listeners leave no property behind: count them as they are added.
    let listeners = 0;
    const add = window.EventTarget.prototype.addEventListener;
    window.EventTarget.prototype.addEventListener = function (...args) {
      listeners++;
      return add.apply(this, args);
    };
    const scopes = { global: globalThis, window };
    const snapshot = () => ({
      props: Object.entries(scopes).map(([name, scope]) => [
        name,
        new Map(
          Object.getOwnPropertyNames(scope).map((key) => {
            const d = Object.getOwnPropertyDescriptor(scope, key);
            return [key, d.get ?? d.value];
          }),
        ),
      ]),
      html: window.document.documentElement.outerHTML,
      domListeners: listeners,
      resources: process.getActiveResourcesInfo().sort().join(),
      listeners: process
        .eventNames()
        .map((e) => e.toString() + ':' + process.listenerCount(e))
        .sort()
        .join(),
    });
    const diff = (before, after) => {
      const traces = new Set();
      after.props.forEach(([, props], i) => {
        const old = before.props[i][1];
        for (const [key, value] of props) {
          if (!old.has(key)) traces.add('global ' + key + ' added');
          else if (!Object.is(old.get(key), value)) traces.add('global ' + key + ' replaced');
        }
      });
      if (after.html !== before.html) traces.add('the document changed');
      if (after.domListeners !== before.domListeners) traces.add('DOM event listeners added');
      if (after.resources !== before.resources) traces.add('active handles: ' + after.resources);
      if (after.listeners !== before.listeners) traces.add('process listeners: ' + after.listeners);
      return [...traces];
    };
    const results = [];
    let before = snapshot();
    ${probes
      .map(
        (probe) => `
    try {
      ${probe.load};
      await new Promise((resolve) => setTimeout(resolve, 20));
      const after = snapshot();
      results.push(diff(before, after));
      before = after;
    } catch (error) {
      results.push(['failed to load: ' + (error?.stack ?? error)]);
    }`,
      )
      .join('\n')}
    process.stdout.write(JSON.stringify(results));
    process.exit(0);
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0) {
    return probes.map(() => [`the probe failed: ${(result.stderr || result.stdout).trim()}`]);
  }
  return JSON.parse(result.stdout);
}
