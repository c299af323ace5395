/**
 * What every command of `servicepay-sandbox` shares: its output and exit codes, reading its
 * arguments (flags, `--help`, whole numbers within bounds), and the flags that become options.
 */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { isUuid } from '../../core/index';
import type { Sandbox } from '../api/types';
import type { SandboxApplication, SandboxOptions } from '../api/options';

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

/** A mistake in the command line: the usage is printed, exit status 2. */
export class UsageError extends Error {}

/** `--help` (or `-h`) given to any command: runCli prints the usage and exits 0. */
export class HelpRequested extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;
/** What parseArgs gives for these options (named, so the package's declarations can say it). */
type Parsed<T extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: boolean }>
>;

export function parse<T extends Options>(
  args: readonly string[],
  options: T,
  allowPositionals = false,
): Parsed<T> {
  let parsed: Parsed<T>;
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals });
  } catch (error) {
    // parseArgs' messages already name the flag ("Unknown option '--prot'").
    throw new UsageError((error as Error).message);
  }
  // Every command takes --help: answered once, in runCli.
  if ((parsed.values as { help?: boolean }).help) throw new HelpRequested();
  return parsed;
}

/** A whole number of a flag, within bounds. */
export function wholeNumber(flag: string, value: string, max: number): number {
  if (!/^\d{1,10}$/.test(value) || Number(value) > max) {
    throw new UsageError(`--${flag} must be a whole number from 0 to ${max}, got "${value}"`);
  }
  return Number(value);
}

/** --unavailable values as ids: the flag may be repeated, and each may list ids with commas. */
export function unavailableFlags(values: readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const ids = values.flatMap((value) => value.split(',')).map((id) => id.trim());
  if (ids.some((id) => id === '')) {
    throw new UsageError(
      `--unavailable takes institution ids separated by commas, such as --unavailable santander,tsb; got "${values.join(',')}"`,
    );
  }
  return ids;
}

/**
 * --merchant-name values as startSandbox's merchantName and applications options: an
 * application id, then `=`, names that application's merchant.
 */
export function merchantNames(
  values: readonly string[],
): Pick<SandboxOptions, 'merchantName' | 'applications'> {
  let merchantName: string | undefined;
  const applications: Record<string, SandboxApplication> = {};
  for (const value of values) {
    const equals = value.indexOf('=');
    const applicationId = value.slice(0, equals);
    if (equals !== -1 && isUuid(applicationId)) {
      applications[applicationId] = { merchantName: value.slice(equals + 1) };
    } else if (merchantName === undefined) {
      merchantName = value;
    } else {
      throw new UsageError(
        '--merchant-name without an application id can be given once; name one application with --merchant-name <application-id>=<name>',
      );
    }
  }
  return { merchantName, applications };
}
