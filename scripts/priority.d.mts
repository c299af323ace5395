/**
 * Gives the process `pid` the nice value `nice` and, with `session` (a child spawned `detached`),
 * its whole session (Linux's autogroup) too.
 */
export declare function lowerPriority(
  pid: number,
  nice: number,
  options?: { session?: boolean },
): void;
