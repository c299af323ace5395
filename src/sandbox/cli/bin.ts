/**
 * The `servicepay-sandbox` executable (the build adds the `#!/usr/bin/env node` line). Runs
 * the command and sets the exit code rather than calling process.exit, so output is flushed;
 * stop() leaves nothing open, so the process then ends by itself.
 */
import { runCli } from './run-cli';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
