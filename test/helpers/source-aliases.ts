// The one alias map from the package's public names to its sources is tsconfig.json's `paths`:
// tsc reads it directly, and vitest and Storybook build their Vite aliases from it here, so a
// new entry point is added in one place. (Vite's own `resolve.tsconfigPaths` applies only to
// files in the TypeScript program, so the example server's .mjs would resolve to dist/.)
import { readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);

interface TsConfig {
  compilerOptions: { paths: Record<string, [string]> };
}

/** `[{ find: /^servicepay\/core$/, replacement: '/…/src/core/index.ts' }, …]` */
export function sourceAliases(): { find: RegExp; replacement: string }[] {
  const { compilerOptions } = JSON.parse(
    readFileSync(new URL('tsconfig.json', root), 'utf8'),
  ) as TsConfig;
  return Object.entries(compilerOptions.paths).map(([name, [target]]) => ({
    find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}$`),
    replacement: new URL(target, root).pathname,
  }));
}
