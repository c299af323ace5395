import { defineConfig } from 'vitest/config';

// Unit tests run in Node; React tests in jsdom. Browser (Chromium) suites are added as
// further projects by the sandbox and Storybook work.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: [
            'test/core/**/*.test.ts',
            'test/webhook/**/*.test.ts',
            'test/build/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'dom',
          include: ['test/react/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // The stylesheets are imported as strings (`?raw`); vitest empties CSS by default.
          css: { include: [/\.css/] },
          setupFiles: ['test/helpers/setup-dom.ts'],
        },
      },
    ],
  },
});
