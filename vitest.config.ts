import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import type { BrowserCommand } from 'vitest/node';
import { CHROMIUM_ARGS, chromiumPath } from './test/helpers/browser.js';
import { sourceAliases } from './test/helpers/source-aliases.js';

// Unit tests run in Node, React tests in jsdom, end-to-end tests in Node driving a real
// headless Chromium (playwright-core).
// SHARED starts one PostgreSQL, one Redis and one Chromium per run, each on first use, for every
// project that lists it (test/helpers/shared-fixtures-setup.ts).
// The example server, the tests and the stories import the package by name, as a merchant's
// code would; they resolve to the sources through tsconfig.json's `paths`, the one alias map
// (tsc, vitest and Storybook all read it).
const alias = sourceAliases();
const SHARED = 'test/helpers/shared-fixtures-setup.ts';
// Left out of `npm run test:quick` (SERVICEPAY_QUICK=1, scripts/quick.mjs): the node tests that
// need the build (test/build) or start PostgreSQL, Redis, receiver processes or workerd. Name a
// new such file to contain postgres, redis, faults, processes or workerd, or add it here.
// `npm test` runs them all.
const SERVER_TESTS = [
  'test/build/**',
  'test/webhook/**/*{postgres,redis,faults,processes,stores,store-examples,workerd}*.test.ts',
];
// A load test that measures the process's memory, so it runs in a process of its own (the
// `memory` project), never beside another file's leftovers; `test:quick` leaves it out.
const MEMORY_TESTS = ['test/sandbox/deliveries.retention.test.ts'];
// A load test `test:quick` leaves out too: a bank list of 100,000 on both renderers.
const HEAVY_DOM_TESTS = ['test/react/BankList.large-list.test.tsx'];
// At least two files at once. vitest's own default is one fewer than the cores, so one on
// this 2-core machine, and most files wait on a browser, a server or a timer, not the CPU.
const WORKERS = Math.max(2, availableParallelism());
// The node project's files wait far more than they compute (claim lifetimes, servers stopped
// and started, receiver processes, retries): two at a time left the CPU 85% idle for most of
// its minute. It runs first, in a group of its own, with twice the workers (60 s -> 41 s alone
// on two cores), and the other checks of `npm test` (scripts/test.mjs, at nice 19) and the
// package project's background installs use what it leaves idle. The browser projects keep
// WORKERS: their files compute.
const NODE_WORKERS = 2 * WORKERS;
// How .storybook/vitest.setup.ts turns a story's page dark and back (the storybook project):
// page.emulateMedia on the test's own page (one per browser session, one file at a time).
const setColorScheme: BrowserCommand<[scheme: 'light' | 'dark' | null]> = ({ page }, scheme) =>
  page.emulateMedia({ colorScheme: scheme });
export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: WORKERS,
    // The stylesheets are imported as strings (`?raw`: the component's, and the sandbox's in
    // every project that starts it); vitest empties CSS by default.
    css: { include: [/\.css/] },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: [
            'test/core/**/*.test.ts',
            'test/webhook/**/*.test.ts',
            'test/sandbox/**/*.test.ts',
            'test/build/**/*.test.ts',
          ],
          exclude: [
            ...configDefaults.exclude,
            ...MEMORY_TESTS,
            ...(process.env.SERVICEPAY_QUICK ? SERVER_TESTS : []),
          ],
          environment: 'node',
          // The files share each worker's module cache instead of importing the sources again
          // (a third of this project's CPU): no file here mocks a module, every stubbed global
          // and env is restored in its afterEach, and the tests of process-wide state (the
          // receiver's warn-once) import their module afresh (vi.resetModules).
          isolate: false,
          // Prints one line when the Redis store cannot be tested here (fails under CI).
          globalSetup: ['test/webhook/support/redis-check.ts', SHARED],
          maxWorkers: NODE_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'memory',
          include: MEMORY_TESTS,
          environment: 'node',
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          // test/vanilla: the Preact build of the component (test/vanilla/support.ts) beside React's;
          // test/hosted: servicepay/hosted's link, loader and wrapper, on a window.Service of the test's.
          include: [
            'test/react/**/*.test.{ts,tsx}',
            'test/vanilla/**/*.test.{ts,tsx}',
            'test/hosted/**/*.test.{ts,tsx}',
          ],
          exclude: process.env.SERVICEPAY_QUICK
            ? [...configDefaults.exclude, ...HEAVY_DOM_TESTS]
            : configDefaults.exclude,
          environment: 'jsdom',
          // As in the node project: the files share each worker's module cache and jsdom (half
          // this project's CPU); testing-library unmounts after every test (setup-dom.ts), and
          // the files pass in any order (vitest --sequence.shuffle.files).
          isolate: false,
          setupFiles: ['test/helpers/setup-dom.ts'],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          // As in the node project; the example shop's page is then bundled once per worker
          // (examples/checkout/server.mjs), not once per file.
          isolate: false,
          globalSetup: [SHARED],
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      // The shopper's journeys in two more engines (Chromium runs them in the e2e project):
      // Firefox ESR (puppeteer-core over WebDriver BiDi) and WebKitGTK (selenium-webdriver and
      // WebKitWebDriver), one file per engine (test/engines/journeys.ts). Last, after
      // everything that is timing-sensitive, the two files side by side (the tail's 112 s were
      // 93 s; beside the package project instead, 103 s). A WebKit journey once hung past its
      // 120 s timeout, which turned side by side off for a while; traced since, with the
      // engines one at a time too: a new WebKit session that never started, now replaced after
      // 20 s (test/engines/support/webkit.ts).
      {
        extends: true,
        test: {
          name: 'engines',
          include: ['test/engines/**/*.test.ts'],
          environment: 'node',
          // Prints one line per engine missing here (fails under CI).
          globalSetup: ['test/engines/support/engine-check.ts', SHARED],
          fileParallelism: true,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 4 },
        },
      },
      // The package as users install it: test/package/global-setup.ts packs the tarball and
      // installs it into scratch apps (React 18, React 19, none), whose own Node, Vite and
      // Chromium then use it; no alias to src/ applies there. The installs run from the start
      // of the run, in the background at a low CPU priority; the tests last, after the
      // storybook group: their Next.js and Vite builds and browsers would slow the
      // timing-sensitive tests.
      {
        test: {
          name: 'package',
          include: ['test/package/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/package/global-setup.ts', SHARED],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 3 },
        },
      },
      // Every story of the Storybook (stories/) as a test in a real headless Chromium: render,
      // play function, then axe (`a11y.test: 'error'` in .storybook/preview.tsx), and a
      // screenshot per story into artifacts/storybook/ (.storybook/vitest.setup.ts).
      async () => {
        const launchOptions = { executablePath: await chromiumPath(), args: CHROMIUM_ARGS };
        return {
          plugins: [
            storybookTest({ configDir: new URL('./.storybook', import.meta.url).pathname }),
          ],
          // The setup file's own import (the a11y addon's check, run again in dark), bundled
          // before the first story: found mid-run, Vite re-optimises and reloads the page, and
          // the stories loading then fail ("Vitest failed to find the runner").
          optimizeDeps: { include: ['@storybook/addon-a11y/preview'] },
          test: {
            name: 'storybook',
            setupFiles: ['.storybook/vitest.setup.ts'],
            // After the other projects, not beside them: two browsers on two cores would slow
            // their timing-sensitive tests (retries, timeouts) down to flakiness.
            sequence: { groupOrder: 2 },
            // Not inherited (no `extends`): two pages of the one browser, each a file at a time.
            maxWorkers: WORKERS,
            provide: {
              storybookScreenshots: new URL('./artifacts/storybook', import.meta.url).pathname,
            },
            browser: {
              enabled: true,
              headless: true,
              provider: playwright({ launchOptions }),
              // One browser, every story rendered once: the test switches the page to dark
              // (prefers-color-scheme) after the light checks and runs axe again there
              // (.storybook/vitest.setup.ts), so the default colours must pass in both. The
              // viewport is each story's (Storybook's `viewport` global, 1200 px by default; the
              // phone stories set 390 px); every state at 390 px is also in test/e2e/shopper.
              instances: [{ browser: 'chromium' }],
              commands: { setColorScheme },
              // The screenshots are written through the browser API (local only).
              api: { allowWrite: true },
            },
          },
        };
      },
    ],
  },
});
