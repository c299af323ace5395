/**
 * The sandbox as the script host of spec 4.3: the standalone component script
 * (`/js/Service-<version>.min.js`), its stylesheets (`/js/Service-0.4.css`,
 * `/js/Service-tailwind-0.1.css`), and the newest script at the bare address (`/js`). The files
 * come from the package's dist/standalone, which `npm run build` writes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send, sendError, sendNotModified } from '../server/http';

/** The script host's address on the sandbox; the bare path serves the newest script. */
export const SCRIPT_HOST_PATH = '/js';

const SCRIPT = /^Service-(\d+)\.(\d+)\.(\d+)\.min\.js$/;
const STYLESHEET = /^Service-(?:tailwind-)?\d+\.\d+\.css$/;
/**
 * The result page's script (window.ServiceResult) and the component's extras (the handoff
 * panel, the remembered and featured banks), which the component's script loads beside itself
 * when a page's options ask for them: served beside the component's.
 */
const RESULT_SCRIPT = /^Service-(?:result|extras)-\d+\.\d+\.\d+\.min\.js$/;

/** A year: a versioned file never changes, so browsers need not ask again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The newest `Service-<version>.min.js` in `dir` (versions compared as numbers), if any. */
export async function newestScript(dir: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return undefined;
  }
  const version = (name: string) => SCRIPT.exec(name)!.slice(1).map(Number);
  return names
    .filter((name) => SCRIPT.test(name))
    .sort((a, b) => {
      const [x, y] = [version(a), version(b)];
      return y[0]! - x[0]! || y[1]! - x[1]! || y[2]! - x[2]!;
    })[0];
}

/** Whether an If-None-Match header lists this entity tag (weak comparison, as for GET). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Answers `GET {SCRIPT_HOST_PATH}/<name>`; an empty name is the bare address. Only the
 * script and stylesheet names of spec 4.3 are served (so no other file, and no path, can be
 * reached); a file that is not there, for example not built yet, is a 404.
 */
export async function serveScriptHost(
  req: IncomingMessage,
  res: ServerResponse,
  name: string,
  scriptDir: string | undefined,
): Promise<void> {
  const latest = name === '';
  const file = latest && scriptDir ? await newestScript(scriptDir) : name;
  const notBuilt = `the standalone script is not built: run npm run build (looked in ${scriptDir ?? "the servicepay package's dist/standalone"})`;
  if (file === undefined || !scriptDir) return sendError(res, 404, `Not found: ${notBuilt}`);
  if (!SCRIPT.test(file) && !RESULT_SCRIPT.test(file) && !STYLESHEET.test(file)) {
    return sendError(
      res,
      404,
      `Not found: the script host serves Service-<version>.min.js, Service-result-<version>.min.js, Service-extras-<version>.min.js, Service-0.4.css and Service-tailwind-0.1.css, not ${JSON.stringify(file)}`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(join(scriptDir, file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return sendError(res, 404, `Not found: ${file} (${notBuilt})`);
  }
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`;
  const headers: Record<string, string> = {
    // Pages that isolate themselves (COEP) may load it from this other origin too.
    'Cross-Origin-Resource-Policy': 'cross-origin',
    // The bare address changes with each release: browsers revalidate it (ETag) every time.
    'Cache-Control': latest ? 'no-cache' : IMMUTABLE,
    ETag: etag,
  };
  // Which version the bare address answered with.
  if (latest) headers['Content-Location'] = `${SCRIPT_HOST_PATH}/${file}`;
  if (matches(req.headers['if-none-match'], etag)) return sendNotModified(res, headers);
  send(res, 200, bytes, {
    ...headers,
    'Content-Type': STYLESHEET.test(file)
      ? 'text/css; charset=utf-8'
      : 'text/javascript; charset=utf-8',
  });
}

/**
 * The dist/standalone directory of the servicepay package this module belongs to, found by
 * walking up to its package.json: the same answer from src/sandbox (tests), dist/ or
 * dist/chunks/ (built, ESM or CJS), and node_modules/servicepay. Undefined if there is none.
 */
export function defaultScriptDir(from: string = import.meta.url): string | undefined {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if (
          (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'servicepay'
        )
          return join(dir, 'dist', 'standalone');
      } catch {
        // Not a package manifest we can read: keep looking above.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
