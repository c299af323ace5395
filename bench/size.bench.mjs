// Bundle sizes for `npm run bench` (bench/run.mjs): size-limit itself, with .size-limit.cjs
// (the same entries, esbuild settings and budgets as `npm run size` in `npm test`), on the
// built dist/. min+gzip bytes; a kB is 1000 bytes, as size-limit counts.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));

export async function run() {
  if (!existsSync(new URL('../dist/index.mjs', import.meta.url))) {
    throw new Error('size bench: dist/ is missing; run `npm run build` first');
  }
  // spawnSync, not execFileSync: stderr is kept whatever the exit code. A missed budget exits 1
  // and still prints the figures.
  const result = spawnSync(
    new URL('../node_modules/.bin/size-limit', import.meta.url).pathname,
    ['--json'],
    { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const out = result.stdout ?? '';
  const stderr = `${result.stderr ?? ''}${result.error ? `\n${result.error.message}` : ''}`;
  let results;
  try {
    results = JSON.parse(out.slice(out.indexOf('[')));
  } catch (error) {
    throw new Error(
      `size bench: size-limit (exit ${result.status}) printed no JSON (${error.message})\nstdout:\n${out}\nstderr:\n${stderr}`,
      { cause: error },
    );
  }
  return results.map((r) => ({
    name: `size: ${r.name}`,
    unit: 'kB',
    value: r.size / 1000,
    budget: `<= ${r.sizeLimit / 1000} kB`,
    ok: r.passed,
  }));
}
