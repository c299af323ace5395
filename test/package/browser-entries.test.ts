// The installed package's browser entries, file by file with everything they import from
// dist: no Node built-ins, and the root entry carries no webhook or sandbox code.
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { smokeApps } from './apps';
import { run } from './support';

const { bare } = await smokeApps();
const pkgDir = join(bare, 'node_modules/servicepay');
const read = (file: string) => readFile(join(pkgDir, file), 'utf8');
// The script is named by the component's version (package.json componentVersion).
const { componentVersion: version } = JSON.parse(await read('package.json')) as {
  componentVersion: string;
};

/**
 * The file and every package file it imports, transitively (paths relative to the package):
 * static imports, dynamic `import('./…')` and `require('./…')`.
 */
async function closure(file: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = await read(file);
  for (const [, spec] of code.matchAll(
    /(?:\bfrom|\bimport|\brequire\()\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  )) {
    await closure(posix.join(posix.dirname(file), spec!), seen);
  }
  return seen;
}

/** What would tie a file to Node: built-in modules, Node-only globals. */
function nodeTraces(code: string): string[] {
  const traces: string[] = [];
  const specifiers = code.matchAll(
    /(?:\bfrom|\bimport|\brequire\()\s*\(?\s*['"]([^'".][^'"]*)['"]/g,
  );
  for (const [, spec] of specifiers) {
    if (spec!.startsWith('node:') || builtinModules.includes(spec!.split('/')[0]!)) {
      traces.push(`imports ${spec}`);
    }
  }
  for (const [pattern, what] of [
    [/\bBuffer\b/, 'Buffer'],
    [/\b__dirname\b|\b__filename\b/, '__dirname/__filename'],
    [/\bprocess\.(?!env\.NODE_ENV\b)\w+/, 'process (other than process.env.NODE_ENV)'],
    [/\bsetImmediate\b/, 'setImmediate'],
  ] as const) {
    const match = code.match(pattern);
    if (match)
      traces.push(`${what}: …${code.slice(Math.max(0, match.index! - 30), match.index! + 40)}…`);
  }
  return traces;
}

const BROWSER_ENTRIES = [
  'dist/index.mjs',
  'dist/index.cjs',
  'dist/client.mjs',
  'dist/client.cjs',
  'dist/hosted.mjs',
  'dist/hosted.cjs',
  'dist/locales-en.mjs',
  'dist/locales-en.cjs',
  'dist/locales-cy.mjs',
  'dist/locales-cy.cjs',
  'dist/core.mjs',
  'dist/core.cjs',
  'dist/vanilla.mjs',
  'dist/vanilla.cjs',
  'dist/webhook-web.mjs',
  'dist/webhook-web.cjs',
  `dist/standalone/Service-${version}.min.js`,
];

describe('the browser entries of the installed package', () => {
  it.each(BROWSER_ENTRIES)('%s uses no Node built-in', async (entry) => {
    const found: Record<string, string[]> = {};
    for (const file of await closure(entry)) {
      const traces = nodeTraces(await read(file));
      if (traces.length > 0) found[file] = traces;
    }
    expect(found).toEqual({});
  });

  it('the check sees Node code where there is some', async () => {
    // The whole closure: node:crypto code sits in a chunk shared with the sandbox (it signs).
    const webhook = [...(await closure('dist/webhook.mjs'))];
    expect((await Promise.all(webhook.map(read))).flatMap(nodeTraces)).toContain(
      'imports node:crypto',
    );
    const sandbox = [...(await closure('dist/sandbox.cjs'))];
    const traces = (await Promise.all(sandbox.map(read))).flatMap(nodeTraces);
    expect(traces).toEqual(expect.arrayContaining(['imports node:http', 'imports node:fs']));
  });

  it.each(['mjs', 'cjs'])(
    'the root entry (.%s) is the React layer over core: no webhook or sandbox code',
    async (ext) => {
      const root = await closure(`dist/index.${ext}`);
      const core = await closure(`dist/core.${ext}`);
      // The entry and its client half (the component, under 'use client'), over core; the
      // client half shares a chunk with the opt-in extras (servicepay/extras), which import
      // the result page's binding too.
      const extras = await closure(`dist/extras.${ext}`);
      const own = [`dist/index.${ext}`, `dist/client.${ext}`];
      const beyondCore = [...root].filter(
        (f) => !own.includes(f) && !core.has(f) && !extras.has(f),
      );
      expect(beyondCore).toEqual([]);

      // Nothing of the server entries' own exports is in it, not even inlined.
      const exportsOf = async (entry: string) => {
        const { stdout } = await run(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `console.log(JSON.stringify(Object.keys(await import('${entry}'))))`,
          ],
          { cwd: bare },
        );
        return JSON.parse(stdout) as string[];
      };
      const coreNames = new Set(await exportsOf('servicepay/core'));
      const serverNames = [
        ...(await exportsOf('servicepay/webhook')),
        ...(await exportsOf('servicepay/webhook/web')),
        ...(await exportsOf('servicepay/sandbox')),
      ].filter((name) => !coreNames.has(name));
      expect(serverNames).toEqual(
        expect.arrayContaining(['verifyWebhookSignature', 'startSandbox']),
      );
      const code = (await Promise.all([...root].map(read))).join('\n');
      // The result page's developer messages name the server's status handler (where to mount
      // it): a name in a sentence, not its code, which the header below stands for.
      const named = new Set(['createPaymentStatusHandler']);
      const found = [...new Set(serverNames)].filter(
        (name) => !named.has(name) && new RegExp(`\\b${name}\\b`).test(code),
      );
      expect(found).toEqual([]);
      expect(code).not.toContain('x-accel-buffering');
      expect(code).not.toContain('SHA256withRSA');
    },
  );
});

describe('the stylesheets of the installed package', () => {
  it('resolves servicepay/hosted.css, the hosted placeholder’s, by import and by require', async () => {
    const resolved = async (how: string) => {
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', how], {
        cwd: bare,
      });
      return stdout.trim();
    };
    const file = join(pkgDir, 'dist/css/hosted.css');
    expect(
      await resolved(`console.log(new URL(import.meta.resolve('servicepay/hosted.css')).pathname)`),
    ).toBe(file);
    expect(
      await resolved(
        `import { createRequire } from 'node:module'; console.log(createRequire(process.cwd() + '/').resolve('servicepay/hosted.css'))`,
      ),
    ).toBe(file);
    const css = await read('dist/css/hosted.css');
    expect(css).toMatch(/^\.servicepay-placeholder \{/m);
    expect(css).toContain('@media (prefers-color-scheme: dark)');
    expect(css).toContain('@media (prefers-reduced-motion: no-preference)');
  });
});
