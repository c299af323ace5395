/**
 * src/vanilla as the package ships it: compiled against Preact with the aliases of
 * rollup.config.mjs and bundled (bundle.mjs, esbuild, a fraction of a second), so these tests
 * run the Preact build of the component from the current sources, beside React's in one
 * document.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type * as Vanilla from '../../src/vanilla/index';

export type VanillaModule = typeof Vanilla;

let loaded: Promise<VanillaModule> | undefined;

export function loadVanilla(): Promise<VanillaModule> {
  loaded ??= (() => {
    // Inside the project (vitest imports nothing from outside its root), one file per worker.
    const cache = join(import.meta.dirname, '../../node_modules/.cache/servicepay');
    mkdirSync(cache, { recursive: true });
    const file = join(mkdtempSync(join(cache, 'vanilla-')), 'vanilla.mjs');
    // import.meta.dirname: jsdom's environment gives import.meta.url another scheme.
    execFileSync(process.execPath, [join(import.meta.dirname, 'bundle.mjs'), file], {
      stdio: 'inherit',
    });
    const module = import(/* @vite-ignore */ file) as Promise<VanillaModule>;
    // Loaded once; the file is not needed afterwards.
    return module.finally(() => rmSync(dirname(file), { recursive: true, force: true }));
  })();
  return loaded;
}
