// Helpers of the package smoke tests (test/package): the scratch apps that global-setup.ts
// installs from the packed tarball, and running commands in them. Every check runs in a child
// process, so Node (or Vite) resolves `servicepay` through the installed package.json, never
// through the repo's aliases to src/.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The scratch apps, each a folder with its own node_modules (see global-setup.ts). */
export interface SmokeApps {
  /** The tarball `npm pack` made. */
  tarball: string;
  /** Only the tarball: React is an optional peer, so none is installed. */
  bare: string;
  /** React 18 and react-dom 18, @testing-library/react and user-event. */
  react18: string;
  /** React 19 (the repo's version) and the same testing libraries. */
  react19: string;
}

/** The key global-setup.ts provides the apps under; the tests read them with apps.ts. */
export const SMOKE_APPS = 'servicepaySmokeApps';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** jsdom provides the DOM for the React apps' checks; it does not touch React's resolution. */
export const JSDOM_PATH = join(REPO, 'node_modules/jsdom/lib/api.js');
/** The service's signed examples, beside the repo (../shared/vectors). */
export const VECTORS_PATH = join(REPO, '../shared/vectors/webhook-signatures.json');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Runs a command to its end. Rejects, with everything it printed, when it exits non-zero or
 * outlasts its time (then it is killed).
 */
export function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  const { cwd, env, timeoutMs = 120_000 } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const result = { code, stdout, stderr };
      if (code === 0) resolve(result);
      else {
        const why = signal ? `was killed (${signal}, limit ${timeoutMs} ms)` : `exited ${code}`;
        reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) ${why}\n${stdout}\n${stderr}`));
      }
    });
  });
}

/** Runs a fixture script with Node in an app and parses the JSON it prints. */
export async function runFixture<T>(app: string, file: string): Promise<T> {
  const { stdout } = await run(process.execPath, [file], {
    cwd: app,
    env: {
      SERVICEPAY_JSDOM: JSDOM_PATH,
      ...(existsSync(VECTORS_PATH) ? { SERVICEPAY_VECTORS: VECTORS_PATH } : {}),
    },
    timeoutMs: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

/**
 * Starts a long-running Node script in an app and resolves with the JSON of its first line
 * (the script prints where it listens); `stop()` sends SIGTERM and waits for the exit.
 */
export async function startFixture<T>(
  app: string,
  file: string,
): Promise<{ info: T; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [file], { cwd: app });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${file} exited ${code} at start\n${stderr}`)));
  });
  return {
    info: JSON.parse(firstLine) as T,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
