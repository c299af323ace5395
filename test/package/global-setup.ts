// Packs the package as npm would publish it (scripts/pack.mjs: once per content, so after
// check:package in `npm test` it is that tarball) and installs the tarball, from the npm registry
// (through the npm cache), into three scratch apps in a temp folder: one with nothing else,
// one with React 18, one with React 19. The tests run their fixtures in those apps.
// Without the registry (and a cold cache) the install fails and so does every package test,
// loudly: CI has the registry. SERVICEPAY_KEEP_SCRATCH=1 keeps the folder for a look afterwards.
//
// It also installs and builds examples/nextjs with the tarball (nextjs.test.ts serves it).
//
// vitest runs every project's globalSetup before the first test of the run, one after another,
// so the installs (about 10 s) would hold back every project. They run in the background instead,
// at a low CPU priority beside the first projects' tests, and so does the Next.js build (about
// 25 s, which the package project would otherwise wait for at its end of the run). The package
// tests (long after, behind the storybook group) wait for them: apps.ts asks a loopback
// endpoint, which answers once they are done.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packOnce } from '../../scripts/pack.mjs';
import { listenOnFreePort } from '../helpers/free-port';
import { NEXT_BUILD_ENV, REPO, SMOKE_APPS, run } from './support';
import type { NextjsApp, SmokeApps } from './support';

const FIXTURES = join(REPO, 'test/package/fixtures');

/** `npm install` as every scratch app runs it: quiet, and from the npm cache where it can. */
const NPM_INSTALL = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

/** Installs `tarball` into the scratch apps under `root`; resolves with them once all are ready. */
async function install(root: string, tarball: string, signal: AbortSignal): Promise<SmokeApps> {
  const started = Date.now();

  // The testing libraries at the repo's versions; React 19 too, React 18 as the oldest major
  // the peer range allows.
  const dev = (
    JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    }
  ).devDependencies;
  const pinned = (name: string) => `${name}@${dev[name]}`;
  const testing = [
    '@testing-library/react',
    '@testing-library/dom',
    '@testing-library/user-event',
  ].map(pinned);
  const apps: Record<Exclude<keyof SmokeApps, 'tarball'>, string[]> = {
    bare: [],
    react18: ['react@18.3.1', 'react-dom@18.3.1', ...testing],
    // With what docs/your-own-shop.md installs beside it: Express, Vite, and tsx to run the
    // server's TypeScript as the page does (own-shop.test.ts).
    react19: [
      pinned('react'),
      pinned('react-dom'),
      ...testing,
      pinned('express'),
      pinned('vite'),
      'tsx@4.23.15',
    ],
  };

  // allSettled, not all: on a failure the other installs are still writing into root, which
  // is only removed once every one of them has ended.
  const settled = await Promise.allSettled(
    Object.entries(apps).map(async ([name, deps]) => {
      const dir = join(root, name);
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: `smoke-${name}`, private: true, type: 'module' }, null, 2),
      );
      try {
        await run('npm', [...NPM_INSTALL, '--save-exact', tarball, ...deps], {
          cwd: dir,
          timeoutMs: 150_000,
          background: true,
          signal,
        });
      } catch (error) {
        throw new Error(
          `npm install failed in the ${name} scratch app: the smoke tests need the npm registry (or a warm npm cache).\n${String(error)}`,
          { cause: error },
        );
      }
      cpSync(FIXTURES, dir, { recursive: true });
      return [name, dir] as const;
    }),
  );
  const failed = settled.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed.length > 0) {
    const [first, ...others] = failed.map((r) => r.reason as unknown);
    if (others.length > 0) {
      console.error(
        `package smoke tests: ${others.length} more scratch app(s) failed to install:\n${others.map(String).join('\n')}`,
      );
    }
    throw first;
  }
  const dirs = settled.map((r) => (r as PromiseFulfilledResult<readonly [string, string]>).value);
  console.log(
    `package smoke tests: installed into ${root} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { tarball, ...(Object.fromEntries(dirs) as Omit<SmokeApps, 'tarball'>) };
}

/**
 * examples/nextjs as a merchant builds it (nextjs.test.ts serves and pays through it): copied
 * into `root`, its dependency on the repository (file:../..) replaced by the tarball, as a
 * merchant's app depends on the published package, installed, and built with no secret in the
 * environment, as CI and Docker builds are.
 */
async function buildNextjs(root: string, tarball: string, signal: AbortSignal): Promise<NextjsApp> {
  const started = Date.now();
  const dir = join(root, 'nextjs');
  cpSync(join(REPO, 'examples/nextjs'), dir, {
    recursive: true,
    filter: (path) => !/[/\\](node_modules|\.next)([/\\]|$)/.test(path),
  });
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  pkg.dependencies.servicepay = `file:${tarball}`;
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  await run('npm', NPM_INSTALL, {
    cwd: dir,
    timeoutMs: 240_000,
    background: true,
    signal,
  });
  const { stdout, stderr } = await run('npx', ['next', 'build'], {
    cwd: dir,
    env: NEXT_BUILD_ENV,
    timeoutMs: 400_000,
    background: true,
    signal,
  });
  console.log(
    `package smoke tests: examples/nextjs installed and built in ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { dir, build: { stdout, stderr } };
}

export default async function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'servicepay-smoke-'));
  const scratch = process.env.SERVICEPAY_KEEP_SCRATCH ? 'kept' : 'removed';
  const failed = (error: unknown): never => {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`package smoke tests: setup failed (${root} ${scratch})\n${message}`, {
      cause: error,
    });
  };
  const packed = new Promise<string>((resolve) => resolve(packOnce().tarball));
  // Ends at the teardown what no file waited for (a run of some package files, not all).
  const unused = new AbortController();
  // Each file asks for what it uses: a Next.js build that fails fails nextjs.test.ts alone.
  const work: Record<string, Promise<unknown>> = {
    apps: packed.then((tarball) => install(root, tarball, unused.signal)).catch(failed),
    nextjs: packed.then((tarball) => buildNextjs(root, tarball, unused.signal)).catch(failed),
  };
  // Settled by the teardown; until then the endpoint below hands each outcome to the files.
  for (const promise of Object.values(work)) promise.catch(() => {});

  const token = randomBytes(16).toString('hex');
  const endpoint = createServer((request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const name = request.url?.startsWith(`/${token}/`) ? request.url.slice(token.length + 2) : '';
    if (!Object.hasOwn(work, name)) return reply(404, { error: 'not a smoke apps endpoint' });
    work[name]!.then(
      (body) => reply(200, body),
      (error: unknown) =>
        reply(500, { error: error instanceof Error ? error.message : String(error) }),
    );
  });
  const port = await listenOnFreePort(endpoint);
  project.provide(SMOKE_APPS as never, `http://127.0.0.1:${port}/${token}` as never);

  return async () => {
    endpoint.close();
    unused.abort();
    // The installs and the build may still be writing into root.
    await Promise.allSettled(Object.values(work));
    if (!process.env.SERVICEPAY_KEEP_SCRATCH) rmSync(root, { recursive: true, force: true });
  };
}
