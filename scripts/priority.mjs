// A lower CPU priority for work that should take only what the tests leave idle: the checks
// beside the tests (scripts/test.mjs) and the smoke tests' installs and build
// (test/package/support.ts).
import { writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Gives the process `pid` the nice value `nice` (0 to 19; higher is lower) and, with `session`
 * (a child spawned `detached`, which leads a session of its own), its whole session too: Linux
 * shares the CPU between sessions first (autogroups), whatever the nice values of the processes
 * in them, so a detached child at nice 19 otherwise gets as much CPU as the session that started
 * it. Where there is no /proc/<pid>/autogroup, the nice value alone applies. A process already
 * gone is left alone (its exit is reported by whoever waits for it).
 *
 * @param {number} pid
 * @param {number} nice
 * @param {{ session?: boolean }} [options]
 */
export function lowerPriority(pid, nice, { session = false } = {}) {
  try {
    setPriority(pid, nice);
  } catch {
    return;
  }
  if (!session) return;
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
  } catch {
    // No autogroups here.
  }
}
