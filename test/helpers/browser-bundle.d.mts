import type { BuildOptions, Plugin } from 'esbuild';
/** The stylesheets' minifier, rollup.config.mjs's. */
export declare function minifyCss(css: string): Promise<string>;
/** `import css from './x.css?raw'` and `import script from './x.js?raw'`, as rollup.config.mjs's rawText plugin builds them. */
export declare const rawText: Plugin;
/** `react` and `react/jsx-runtime` as rollup.config.mjs's preactBuild resolves them. */
export declare const preactBuild: Plugin;
/** One ES module for a browser page, bundled with React or with Preact as the Preact builds use it. */
export declare function bundleForBrowser(
  options: BuildOptions & { framework?: 'react' | 'preact' },
): Promise<string>;
