import type { StorybookConfig } from '@storybook/react-vite';
import { sourceAliases } from '../test/helpers/source-aliases.js';

// Stories import the package by name, as a merchant's code would; it resolves to the sources
// through tsconfig.json's `paths`, as tsc and vitest.config.ts do.

const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs', '@storybook/addon-a11y', '@storybook/addon-vitest'],
  framework: { name: '@storybook/react-vite', options: {} },
  // Fully offline: no telemetry, no version check, no crash reports.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true, enableCrashReports: false },
  typescript: {
    // react-docgen-typescript follows `extends` across files, so the props inherited from
    // the core's SessionOptions keep their JSDoc (descriptions and @default) in the docs.
    reactDocgen: 'react-docgen-typescript',
    reactDocgenTypescriptOptions: {
      include: ['src/react/**/*.tsx'],
      shouldExtractLiteralValuesFromEnum: true,
      shouldRemoveUndefinedFromOptional: true,
      // React's own props (key, ref) come from node_modules; every prop of ours is documented.
      propFilter: (prop) => !prop.parent?.fileName.includes('node_modules'),
    },
  },
  viteFinal: (config) => ({
    ...config,
    logLevel: 'warn',
    build: {
      ...config.build,
      // The catalogue's own preview bundle (docs, axe) is big by nature and never shipped.
      chunkSizeWarningLimit: 2048,
      rolldownOptions: {
        ...config.build?.rolldownOptions,
        checks: { ...config.build?.rolldownOptions?.checks, bundlerTimings: false },
        onwarn(warning, warn) {
          // The React entry's 'use client' is meant for the package's users (rollup.config.mjs
          // re-adds it); inside the catalogue's bundle it has no meaning.
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
          const previous = config.build?.rolldownOptions?.onwarn;
          if (previous) previous(warning, warn);
          else warn(warning);
        },
      },
    },
    resolve: {
      ...config.resolve,
      alias: [
        ...(Array.isArray(config.resolve?.alias) ? config.resolve.alias : []),
        ...sourceAliases(),
      ],
    },
  }),
};

export default config;
