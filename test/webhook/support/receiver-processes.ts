// Receiver processes (support/receiver-process.ts) for the tests across processes: the child
// bundled once per test file, started with its environment, and drained at the end.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleForNode, nodeBundleDir } from './node-bundle.mjs';

export interface ReceiverProcess {
  name: string;
  child: ChildProcess;
  port: number;
  /** Set by the test when it kills the process on purpose. */
  killed: boolean;
}

export interface ReceiverProcesses {
  /** Bundles the child (beforeAll). */
  bundle(): Promise<void>;
  /** Starts a receiver process named `name` with `env` beside this process's own. */
  start(name: string, env: Record<string, string>): Promise<ReceiverProcess>;
  /** Stops taking deliveries, lets running handlers finish, and waits for the exit. */
  drain(receiver: ReceiverProcess): Promise<void>;
  /** Deletes the bundle (afterAll). */
  remove(): void;
}

export function receiverProcesses(): ReceiverProcesses {
  const dir = nodeBundleDir();
  const bundle = `${dir}receiver-process.mjs`;
  return {
    async bundle() {
      await bundleForNode(fileURLToPath(new URL('./receiver-process.ts', import.meta.url)), bundle);
    },
    async start(name, env) {
      const child = fork(bundle, [], {
        env: { ...process.env, ...env, RECEIVER_NAME: name },
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      const port = await new Promise<number>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`receiver ${name} exited (${code})`)));
        child.on('message', (message: { type: string; port?: number }) => {
          if (message.type === 'ready') resolve(message.port as number);
        });
      });
      child.removeAllListeners('exit');
      return { name, child, port, killed: false };
    },
    async drain(receiver) {
      if (receiver.killed || receiver.child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        receiver.child.once('exit', () => resolve());
        receiver.child.send({ type: 'drain' });
      });
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
