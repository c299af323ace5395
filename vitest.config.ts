import { defineConfig } from 'vitest/config';

// Unit tests run in Node, React tests in jsdom, end-to-end tests in Node driving a real
// headless Chromium (playwright-core).
// The example server imports the package by name (as a merchant's would); tests resolve those
// names to the sources, as tsconfig's `paths` does.
const src = (path: string) => new URL(`./src/${path}`, import.meta.url).pathname;
const alias = [
  { find: /^servicepay$/, replacement: src('react/index.ts') },
  { find: /^servicepay\/core$/, replacement: src('core/index.ts') },
  { find: /^servicepay\/webhook$/, replacement: src('webhook/index.ts') },
  { find: /^servicepay\/webhook\/web$/, replacement: src('webhook/web.ts') },
  { find: /^servicepay\/sandbox$/, replacement: src('sandbox/index.ts') },
];

export default defineConfig({
  resolve: { alias },
  test: {
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
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          include: ['test/react/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // The stylesheets are imported as strings (`?raw`); vitest empties CSS by default.
          css: { include: [/\.css/] },
          setupFiles: ['test/helpers/setup-dom.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
