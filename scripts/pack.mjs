// `npm pack` once per content: check:package and the package smoke tests (test/package) both
// need the tarball npm would publish; whoever comes second in a run gets the first one's. The
// tarball is kept under node_modules/.cache/servicepay-pack/<hash>/, where <hash> covers every
// byte npm could pack (dist/, docs/ and every top-level file), so a rebuild or an edit packs again.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(REPO, 'node_modules', '.cache', 'servicepay-pack');

/** Every file under `dir`, as paths relative to the repo, sorted. */
function walk(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(REPO, join(entry.parentPath, entry.name)))
    .sort();
}

/** A hash of what `npm pack` reads: dist/, docs/ and the repo's top-level files, names and bytes. */
function inputsHash() {
  const topLevel = readdirSync(REPO, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
  const hash = createHash('sha256');
  for (const file of [...topLevel, ...walk(join(REPO, 'dist')), ...walk(join(REPO, 'docs'))]) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(REPO, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The tarball of the package as it is now, and the paths it holds (sorted): packed with
 * `npm pack`, or the same content's tarball from earlier in the run. npm's stderr is kept, so
 * a failure says why.
 *
 * @returns {{ tarball: string, files: string[] }}
 */
export function packOnce() {
  if (!existsSync(join(REPO, 'dist'))) {
    throw new Error('servicepay: nothing to pack, dist/ is missing: run `npm run build` first.');
  }
  const dir = join(CACHE, inputsHash());
  const manifest = join(dir, 'pack.json');
  if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8'));

  // Packed beside the final folder and renamed into place: two runs at once cannot see half.
  // Earlier contents' tarballs go; this content's, and another process's packing of it (the
  // package check and the smoke tests' setup can run at once), stay.
  const hash = basename(dir);
  for (const entry of existsSync(CACHE) ? readdirSync(CACHE) : []) {
    if (entry !== hash && !entry.startsWith(`${hash}.`)) {
      rmSync(join(CACHE, entry), { recursive: true, force: true });
    }
  }
  const staging = `${dir}.${process.pid}`;
  mkdirSync(staging, { recursive: true });
  let out;
  try {
    out = execFileSync('npm', ['pack', '--json', '--pack-destination', staging], {
      cwd: REPO,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`npm pack failed: ${message}\n${error?.stdout ?? ''}`.trim(), {
      cause: error,
    });
  }
  const [info] = JSON.parse(out);
  if (!info?.filename) throw new Error(`npm pack printed no tarball name:\n${out}`);
  const packed = {
    tarball: join(dir, info.filename),
    files: info.files.map((file) => file.path).sort(),
  };
  writeFileSync(join(staging, 'pack.json'), JSON.stringify(packed));
  try {
    renameSync(staging, dir);
  } catch {
    // Another process packed the same content first: use its tarball.
    rmSync(staging, { recursive: true, force: true });
  }
  return packed;
}
