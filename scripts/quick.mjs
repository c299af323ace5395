// `npm run test:quick`: the contributor's gate before a push, in about a minute and a half on a
// 2-core machine. Format, lint, both TypeScript programs, and the `node` and `dom` projects
// without the tests that start servers or need the build (SERVICEPAY_QUICK, vitest.config.ts),
// all at once, the checks at a lower priority (nice) so that the tests' timing-sensitive parts
// keep the cores; each stage's output is printed when it ends, and the run fails if any stage
// does. The caches (prettier, eslint, tsc) live in node_modules/.cache, so a second run checks
// only what changed. `npm test` runs everything.
import { spawn } from 'node:child_process';

const CACHE = 'node_modules/.cache/servicepay-quick';
const stages = [
  ['format', 'prettier', ['--check', '--cache', '--cache-location', `${CACHE}/prettier`, '.']],
  ['lint', 'eslint', ['.', '--max-warnings=0', '--cache', '--cache-location', `${CACHE}/eslint/`]],
  ...['tsconfig.json', 'tsconfig.browser.json'].map((project) => [
    `types (${project})`,
    'tsc',
    [
      '-p',
      project,
      '--noEmit',
      '--incremental',
      '--tsBuildInfoFile',
      `${CACHE}/${project}.tsbuildinfo`,
    ],
  ]),
  [
    'tests (node, dom)',
    'vitest',
    ['run', '--project', 'node', '--project', 'dom'],
    { SERVICEPAY_QUICK: '1' },
  ],
];

const started = Date.now();
const results = await Promise.all(
  stages.map(
    ([name, command, args, env = {}]) =>
      new Promise((resolve) => {
        const since = Date.now();
        const tests = command === 'vitest';
        const argv = ['npx', '--no-install', command, ...args];
        const child = spawn(
          tests ? argv[0] : 'nice',
          tests ? argv.slice(1) : ['-n', '10', ...argv],
          {
            env: { ...process.env, ...env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('close', (code) => {
          const seconds = ((Date.now() - since) / 1000).toFixed(1);
          const ok = code === 0;
          console.log(`\n── ${name}: ${ok ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s`);
          if (!ok || tests) console.log(output.trimEnd());
          resolve(ok);
        });
      }),
  ),
);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
const failed = results.filter((ok) => !ok).length;
console.log(`\ntest:quick: ${failed ? `${failed} stage(s) failed` : 'all passed'} in ${seconds} s`);
process.exit(failed ? 1 : 0);
