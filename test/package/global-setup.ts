// Packs the package as npm would publish it (scripts/pack.mjs: once per content, so after
// check:package in `npm test` it is that tarball) and installs the tarball, from the npm registry
// (through the npm cache), into three scratch apps in a temp folder: one with nothing else,
// one with React 18, one with React 19. The tests run their fixtures in those apps.
// Without the registry (and a cold cache) the install fails and so does the run, loudly: CI
// has the registry. SERVICEPAY_KEEP_SCRATCH=1 keeps the folder for a look afterwards.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packOnce } from '../../scripts/pack.mjs';
import { REPO, SMOKE_APPS, run } from './support';
import type { SmokeApps } from './support';

const FIXTURES = join(REPO, 'test/package/fixtures');

export default async function setup(project: TestProject) {
  const started = Date.now();
  const root = mkdtempSync(join(tmpdir(), 'servicepay-smoke-'));
  const removeRoot = () => {
    if (!process.env.SERVICEPAY_KEEP_SCRATCH) rmSync(root, { recursive: true, force: true });
  };
  try {
    const { tarball } = packOnce();

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
          await run(
            'npm',
            [
              'install',
              '--no-audit',
              '--no-fund',
              '--prefer-offline',
              '--loglevel=error',
              '--save-exact',
              tarball,
              ...deps,
            ],
            { cwd: dir, timeoutMs: 150_000 },
          );
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

    const provided: SmokeApps = {
      tarball,
      ...(Object.fromEntries(dirs) as Omit<SmokeApps, 'tarball'>),
    };
    project.provide(SMOKE_APPS as never, provided as never);
    console.log(
      `package smoke tests: packed and installed into ${root} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } catch (error) {
    removeRoot();
    const message = error instanceof Error ? error.message : String(error);
    const scratch = process.env.SERVICEPAY_KEEP_SCRATCH ? 'kept' : 'removed';
    throw new Error(`package smoke tests: setup failed (${root} ${scratch})\n${message}`, {
      cause: error,
    });
  }

  return removeRoot;
}
