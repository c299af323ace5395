/** What every command of `servicepay-sandbox` shares: its output and its exit codes. */
import type { Sandbox } from '../types';

/** Exit codes: success, a failure at run time, a usage error (as most CLIs use 2). */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export interface CliIo {
  /** Normal output, one line per call. */
  out(line: string): void;
  /** Errors and usage, one line per call. */
  err(line: string): void;
  /** Resolves when the sandbox should stop (SIGINT, SIGTERM). */
  untilStopRequested(): Promise<void>;
  /** Called with the running sandbox, once it listens (for tests). */
  onStarted?(sandbox: Sandbox): void;
}
