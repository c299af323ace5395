// @vitest-environment node
// `npm start` as a newcomer meets it: a port already in use ends in one line naming the variable
// that picks another, not a stack trace. (`npm test` builds first, so no rebuild happens here.)
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnFreePort } from '../helpers/free-port';

const START = fileURLToPath(new URL('../../scripts/start.mjs', import.meta.url));
const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function busyPort(): Promise<number> {
  const server = createServer();
  servers.push(server);
  return listenOnFreePort(server);
}

function start(env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [START], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// Each case starts a Node process that loads the built package: about a second alone, but the
// suite runs it beside others on two cores. The bound is for a hang, not a speed check.
describe('npm start on a busy port', { timeout: 60_000 }, () => {
  it.each([
    ['PORT', 'the example checkout', { SANDBOX_PORT: '0' }],
    ['SANDBOX_PORT', 'the sandbox', { PORT: '0' }],
  ] as const)('names %s when %s cannot listen', async (variable, what, others) => {
    const port = await busyPort();
    const { code, stdout, stderr } = await start({ ...others, [variable]: String(port) });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      `Port ${port} is already in use (${what}). Stop what uses it, or choose another port: ${variable}=${port + 100} npm start`,
    );
    expect(stdout).toContain('Package build is up to date');
    expect(stdout).not.toContain('Ready in');
  });
});
