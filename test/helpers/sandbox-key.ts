/**
 * One sandbox signing key per test process, through the sandbox's own `keyFile` option: the
 * first sandbox writes it, the rest read it. A new RSA-2048 key costs about 130 ms of CPU, and
 * most end-to-end tests start a sandbox of their own. Tests of the key itself pass no file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const folder = mkdtempSync(join(tmpdir(), 'servicepay-sandbox-key-'));
process.on('exit', () => rmSync(folder, { recursive: true, force: true }));

export const sandboxKeyFile = join(folder, 'key.pem');
