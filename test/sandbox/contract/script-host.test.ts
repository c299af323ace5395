// @vitest-environment node
// The sandbox as the script host of spec 4.3: the standalone script and its stylesheets under
// /js, the newest script at the bare address, 404 when they are not there.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SandboxConfigError, SCRIPT_HOST_PATH, startSandbox } from '../../../src/sandbox/index';
import { defaultScriptDir, newestScript } from '../../../src/sandbox/contract/script-host';
import { testSandbox } from '../support/sandbox';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** A script host directory with these files (name -> content). */
function scriptDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'servicepay-script-host-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

const FILES = {
  'Service-0.9.3.min.js': 'window.Service = "0.9.3";',
  'Service-0.10.0.min.js': 'window.Service = "0.10.0";',
  'Service-0.9.10.min.js': 'window.Service = "0.9.10";',
  'Service-0.4.css': '.service-root{}',
  'Service-tailwind-0.1.css': '.flex{display:flex}',
  'notes.txt': 'not served',
};

describe('the script host (spec 4.3)', () => {
  it('is at /js', () => {
    expect(SCRIPT_HOST_PATH).toBe('/js');
  });

  it('serves a versioned script as JavaScript, cacheable for a year, to any origin', async () => {
    const sandbox = await testSandbox({ scriptDir: scriptDir(FILES) });
    const response = await fetch(`${sandbox.url}/js/Service-0.9.3.min.js`, {
      headers: { Origin: 'https://shop.example' },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('window.Service = "0.9.3";');
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'access-control-allow-origin': 'https://shop.example',
      'cross-origin-resource-policy': 'cross-origin',
      etag: expect.stringMatching(/^"[\w-]{22}"$/),
    });
    expect(response.headers.get('content-location')).toBeNull();
  });

  it('serves the stylesheets as CSS', async () => {
    const sandbox = await testSandbox({ scriptDir: scriptDir(FILES) });
    for (const [name, content] of [
      ['Service-0.4.css', '.service-root{}'],
      ['Service-tailwind-0.1.css', '.flex{display:flex}'],
    ]) {
      const response = await fetch(`${sandbox.url}/js/${name}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await response.text()).toBe(content);
    }
  });

  it('serves the newest version at the bare address, revalidated every time', async () => {
    const sandbox = await testSandbox({ scriptDir: scriptDir(FILES) });
    for (const path of ['/js', '/js/']) {
      const response = await fetch(`${sandbox.url}${path}`);
      expect(response.status).toBe(200);
      // 0.10.0 > 0.9.10 > 0.9.3: versions compare as numbers, not as text.
      expect(await response.text()).toBe('window.Service = "0.10.0";');
      expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-location')).toBe('/js/Service-0.10.0.min.js');
    }
    expect(await newestScript(scriptDir(FILES))).toBe('Service-0.10.0.min.js');
  });

  it('answers 304 to a matching If-None-Match, and HEAD without a body', async () => {
    const sandbox = await testSandbox({ scriptDir: scriptDir(FILES) });
    const url = `${sandbox.url}/js/Service-0.9.3.min.js`;
    const etag = (await fetch(url)).headers.get('etag')!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await fetch(url, { headers: { 'If-None-Match': ifNoneMatch } });
      expect(response.status, ifNoneMatch).toBe(304);
      expect(response.headers.get('etag')).toBe(etag);
      expect(await response.text()).toBe('');
    }
    expect((await fetch(url, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(FILES['Service-0.9.3.min.js'].length));
  });

  it('serves no other file, and no path outside the directory', async () => {
    const dir = scriptDir(FILES);
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'Service-1.0.0.min.js'), 'nested');
    const sandbox = await testSandbox({ scriptDir: dir });
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        // node:http sends the path as written (fetch would normalise the dots away).
        request(`${sandbox.url}${path}`, (res) => {
          res.resume();
          resolve(res.statusCode!);
        })
          .on('error', reject)
          .end();
      });
    for (const path of [
      '/js/notes.txt',
      '/js/Service-0.9.3.js',
      '/js/sub/Service-1.0.0.min.js',
      '/js/..%2Fpackage.json',
      '/js/../package.json',
      '/js/%2e%2e/Service-0.4.css',
      '/jsx',
    ]) {
      expect(await get(path), path).toBe(404);
    }
    const response = await fetch(`${sandbox.url}/js/notes.txt`);
    expect(await response.json()).toEqual({
      error:
        'Not found: the script host serves Service-<version>.min.js, Service-result-<version>.min.js, Service-extras-<version>.min.js, Service-0.4.css and Service-tailwind-0.1.css, not "notes.txt"',
    });
  });

  it('answers 404 naming the build step when the files are not built', async () => {
    for (const dir of [scriptDir({}), join(tmpdir(), 'servicepay-no-such-dir')]) {
      const sandbox = await testSandbox({ scriptDir: dir });
      for (const path of ['/js', '/js/Service-0.9.3.min.js', '/js/Service-0.4.css']) {
        const response = await fetch(`${sandbox.url}${path}`);
        expect(response.status, path).toBe(404);
        expect(((await response.json()) as { error: string }).error).toContain(
          `the standalone script is not built: run npm run build (looked in ${dir})`,
        );
      }
    }
  });

  it('allows only GET, HEAD and OPTIONS', async () => {
    const sandbox = await testSandbox({ scriptDir: scriptDir(FILES) });
    const response = await fetch(`${sandbox.url}/js`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('where the script host finds the files', () => {
  it("defaults to the servicepay package's dist/standalone, from the sources and from dist", () => {
    const expected = join(REPO, 'dist', 'standalone');
    expect(defaultScriptDir()).toBe(expected);
    // As the built sandbox and its chunks run (the files need not exist to be located).
    for (const built of ['dist/sandbox.mjs', 'dist/chunks/server-abc.cjs']) {
      expect(defaultScriptDir(pathToFileURL(join(REPO, built)).href)).toBe(expected);
    }
  });

  it('finds it inside node_modules, and nothing outside any servicepay package', () => {
    const app = mkdtempSync(join(tmpdir(), 'servicepay-app-'));
    writeFileSync(join(app, 'package.json'), '{"name":"merchant-app"}');
    const pkg = join(app, 'node_modules', 'servicepay');
    mkdirSync(join(pkg, 'dist', 'chunks'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{"name":"servicepay"}');
    const chunk = pathToFileURL(join(pkg, 'dist', 'chunks', 'server.mjs')).href;
    expect(defaultScriptDir(chunk)).toBe(join(pkg, 'dist', 'standalone'));
    expect(defaultScriptDir(pathToFileURL(join(app, 'server.mjs')).href)).toBeUndefined();
  });

  it('refuses a scriptDir that is not a path', async () => {
    await expect(startSandbox({ port: 0, scriptDir: '' })).rejects.toThrow(SandboxConfigError);
    await expect(startSandbox({ port: 0, scriptDir: 42 as unknown as string })).rejects.toThrow(
      'servicepay: sandbox option scriptDir must be a directory path.',
    );
  });
});
