/** Flags of `servicepay-sandbox` that take more than a check: their values as options. */
import { isUuid } from '../../core/index';
import type {} from '../types';
import type { SandboxApplication, SandboxOptions } from '../sandbox-options';

/** A mistake in the command line: the usage is printed, exit status 2. */
export class UsageError extends Error {}

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
