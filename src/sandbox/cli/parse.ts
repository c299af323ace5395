/** Reading a command's arguments: its flags, `--help`, and whole numbers within bounds. */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from './flags';

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  args: readonly string[],
  options: T,
  allowPositionals = false,
) {
  let parsed;
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

/** `--help` (or `-h`) given to any command: runCli prints the usage and exits 0. */
export class HelpRequested extends Error {}

export /** A whole number of a flag, within bounds. */
function wholeNumber(flag: string, value: string, max: number): number {
  if (!/^\d{1,10}$/.test(value) || Number(value) > max) {
    throw new UsageError(`--${flag} must be a whole number from 0 to ${max}, got "${value}"`);
  }
  return Number(value);
}
