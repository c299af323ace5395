/** The CLI run in-process, for tests. */
import type { CliIo, Sandbox } from '../../../src/sandbox/index';

export /** An in-process CliIo: collects output; `requestStop` plays the part of Ctrl-C. */
function testIo() {
  const out: string[] = [];
  const err: string[] = [];
  let requestStop!: () => void;
  const stopRequested = new Promise<void>((resolve) => (requestStop = resolve));
  let started!: (sandbox: Sandbox) => void;
  const sandbox = new Promise<Sandbox>((resolve) => (started = resolve));
  const io: CliIo = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    untilStopRequested: () => stopRequested,
    onStarted: (s) => started(s),
  };
  return { io, out, err, requestStop, sandbox };
}
