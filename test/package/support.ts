// Helpers of the package smoke tests (test/package): the scratch apps that global-setup.ts
// installs from the packed tarball, and running commands in them. Every check runs in a child
// process, so Node (or Vite) resolves `servicepay` through the installed package.json, never
// through the repo's aliases to src/.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { lowerPriority } from '../../scripts/priority.mjs';

/** The scratch apps, each a folder with its own node_modules (see global-setup.ts). */
export interface SmokeApps {
  /** The tarball `npm pack` made. */
  tarball: string;
  /** Only the tarball: React is an optional peer, so none is installed. */
  bare: string;
  /** React 18 and react-dom 18, @testing-library/react and user-event. */
  react18: string;
  /** React 19 (the repo's version), the same testing libraries, Express, Vite and tsx. */
  react19: string;
}

/** examples/nextjs, installed with the tarball and built (global-setup.ts). */
export interface NextjsApp {
  dir: string;
  /** What `next build` printed. */
  build: { stdout: string; stderr: string };
}

/** The environment of `next build`: nothing of the service's configuration may reach it. */
export const NEXT_BUILD_ENV = {
  SERVICEPAY_PUBLIC_KEY: undefined,
  SERVICEPAY_SANDBOX_URL: undefined,
  SERVICEPAY_APPLICATION_ID: undefined,
  NEXT_TELEMETRY_DISABLED: '1',
  NODE_ENV: 'production',
};

/** The key global-setup.ts provides its endpoint under; the tests ask it with apps.ts. */
export const SMOKE_APPS = 'servicepaySmokeApps';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** jsdom provides the DOM for the React apps' checks; it does not touch React's resolution. */
export const JSDOM_PATH = join(REPO, 'node_modules/jsdom/lib/api.js');
/** The service's signed examples (test/fixtures/README.md). */
export const VECTORS_PATH = join(REPO, 'test/fixtures/webhook-signatures.json');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  /** Added to the environment; a key set to undefined is removed from it. */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /**
   * At a low CPU priority (nice 10): it takes only what the tests running meanwhile leave
   * (global-setup.ts's installs, beside the first projects' tests).
   */
  background?: boolean;
  /** Ends it, and whatever it started (its process group), when aborted. */
  signal?: AbortSignal;
}

/**
 * Runs a command to its end. Rejects, with everything it printed, when it exits non-zero or
 * outlasts its time (then it is killed).
 */
export function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  const { cwd, env, timeoutMs = 120_000, background = false, signal } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      // A process group of its own, to end as a whole.
      detached: signal !== undefined,
    });
    // Killed at its time limit or on abort: with its process group when it has one.
    const end = () => {
      try {
        if (signal) process.kill(-child.pid!, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    if (signal?.aborted) end();
    signal?.addEventListener('abort', end, { once: true });
    // Before it starts its threads, which take the priority of the one that starts them; and
    // its session's, when it has one of its own (scripts/priority.mjs).
    if (background && child.pid !== undefined) {
      lowerPriority(child.pid, 10, { session: signal !== undefined });
    }
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const timer = setTimeout(end, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', end);
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
      SERVICEPAY_VECTORS: VECTORS_PATH,
    },
    timeoutMs: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

export interface StartOptions {
  /** How long the script may take to print its first line; then it is killed. */
  startTimeoutMs?: number;
  /** Arguments after the file, and variables added to the environment. */
  args?: string[];
  env?: Record<string, string>;
  /**
   * For a command that prints text rather than JSON: the line that says it is ready (earlier
   * lines are skipped). `info` is then that line.
   */
  ready?: RegExp;
}

/** After SIGTERM, how long `stop()` waits before SIGKILL. */
const STOP_GRACE_MS = 5_000;

/**
 * Starts a long-running Node script in an app and resolves with the JSON of its first line
 * (the script prints where it listens). If the script exits, fails to print within
 * `startTimeoutMs` or prints something other than JSON, it is killed and the promise rejects
 * with what it wrote to stderr. `stop()` sends SIGTERM, then SIGKILL after 5 s, and waits for
 * the exit; `output()` is everything it printed so far (stdout, then stderr).
 */
export async function startFixture<T>(
  app: string,
  file: string,
  options: StartOptions = {},
): Promise<{ info: T; stop: () => Promise<void>; output: () => string }> {
  const { startTimeoutMs = 30_000, args = [], env, ready } = options;
  const child = spawn(process.execPath, [file, ...args], {
    cwd: app,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let printed = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  // Read stdout to its end, so a chatty script never blocks on a full pipe.
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => (printed += `${line}\n`));
  let ended = false;
  const exited = new Promise<void>((resolve) => {
    const done = () => {
      ended = true;
      resolve();
    };
    child.once('exit', done);
    // A process that could not be spawned emits 'error' and may never emit 'exit'.
    child.once('error', () => {
      if (child.pid === undefined) done();
    });
  });

  const stop = async () => {
    if (!ended) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        if (!ended) child.kill('SIGKILL');
      }, STOP_GRACE_MS);
      try {
        await exited;
      } finally {
        clearTimeout(timer);
      }
    }
    lines.close();
  };

  let firstLine: string | undefined;
  try {
    firstLine = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`printed nothing within ${startTimeoutMs} ms (killed)`)),
        startTimeoutMs,
      );
      const onLine = (line: string) => {
        if (ready && !ready.test(line)) return;
        lines.off('line', onLine);
        clearTimeout(timer);
        resolve(line);
      };
      lines.on('line', onLine);
      // 'close', not 'exit': stdout is drained by then, so a last line is not mistaken for none.
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`exited ${signal ?? code} before printing its address`));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    return {
      info: (ready ? firstLine : JSON.parse(firstLine)) as T,
      stop,
      output: () => `${printed}${stderr}`,
    };
  } catch (error) {
    await stop();
    const why = error instanceof Error ? error.message : String(error);
    const printed = firstLine === undefined ? '' : `\nits first line: ${firstLine}`;
    throw new Error(`${file} (in ${app}) failed to start: ${why}${printed}\nstderr:\n${stderr}`, {
      cause: error,
    });
  }
}
