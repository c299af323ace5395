// The one way tests and benches turn TypeScript sources into a file a plain Node child process
// runs (a child has no vitest aliases): esbuild, ESM for Node 20, with pg and redis left
// external so the bundle finds them in node_modules as the tests do. Write the bundle under
// node_modules/.cache (nodeBundleDir) for that lookup to work. Plain .mjs, for the benches too.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A new folder under node_modules/.cache for one caller's bundles (created): its own even when
 * test files share a process (vitest's threads), so one file's cleanup never removes another's.
 */
export function nodeBundleDir() {
  const dir = fileURLToPath(
    new URL(`../../../node_modules/.cache/servicepay-tests/${randomUUID()}/`, import.meta.url),
  );
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Bundles `entry` (a file path, or `{ contents, resolveDir }` for source text) into `outfile`.
 * `alias` maps package specifiers to source files (the examples import `servicepay/...`).
 * Resolves with `outfile`.
 */
export async function bundleForNode(entry, outfile, alias = {}) {
  const { build } = await import('esbuild');
  await build({
    ...(typeof entry === 'string'
      ? { entryPoints: [entry] }
      : { stdin: { ...entry, loader: 'ts' } }),
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['pg', 'redis'],
    alias,
    logLevel: 'error',
  });
  return outfile;
}
