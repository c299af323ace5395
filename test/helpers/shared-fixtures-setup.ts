// globalSetup of every project whose tests start PostgreSQL, Redis or Chromium: one of each per
// run, started the first time a file asks (test/helpers/shared-fixtures.mjs), so that a run of
// `dom` tests or a single file starts nothing it does not use. A loopback HTTP endpoint with a
// random path hands out the addresses; its own address is provided to the files. Several
// projects share one broker (kept on globalThis of vitest's main process); the last project's
// teardown stops the servers.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { listenOnFreePort } from './free-port';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.mjs';
import { SHARED_FIXTURES } from './shared-fixtures.mjs';
import { startPostgres, startRedis } from '../webhook/support/servers.mjs';

type Kind = 'postgres' | 'redis' | 'chromium';
type Address = Record<string, string | null>;

interface Broker {
  url: string;
  users: number;
  close(): Promise<void>;
}

const STATE = Symbol.for('servicepay.sharedFixtures');
const state = globalThis as { [STATE]?: Promise<Broker> };

async function startBroker(): Promise<Broker> {
  const stops: (() => Promise<void>)[] = [];
  const starters: Record<Kind, () => Promise<Address>> = {
    async postgres() {
      // Several files at once, each with receiver processes and pools of their own.
      const server = await startPostgres({
        own: true,
        flags: ['-c', 'max_connections=400', '-c', 'fsync=off'],
      });
      stops.push(() => server.stop());
      return { url: server.url };
    },
    async redis() {
      if (process.env.REDIS_URL) return { url: process.env.REDIS_URL };
      const server = await startRedis({ own: true });
      if (server === null) return { url: null };
      stops.push(() => server.stop());
      return { url: server.url };
    },
    async chromium() {
      const server = await chromium.launchServer({
        executablePath: await chromiumPath(),
        args: CHROMIUM_ARGS,
      });
      stops.push(() => server.close());
      return { wsEndpoint: server.wsEndpoint() };
    },
  };
  const started = new Map<Kind, Promise<Address>>();
  const token = randomBytes(16).toString('hex');
  const http = createServer((request, response) => {
    const kind = request.url?.startsWith(`/${token}/`)
      ? (request.url.slice(token.length + 2) as Kind)
      : undefined;
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'POST' || kind === undefined || !Object.hasOwn(starters, kind)) {
      reply(404, { error: `no shared fixture at ${request.method} ${request.url}` });
      return;
    }
    let address = started.get(kind);
    if (address === undefined) {
      address = starters[kind]();
      started.set(kind, address);
    }
    address.then(
      (body) => reply(200, body),
      (error: unknown) =>
        reply(500, { error: String(error instanceof Error ? error.stack : error) }),
    );
  });
  const port = await listenOnFreePort(http);
  return {
    url: `http://127.0.0.1:${port}/${token}`,
    users: 0,
    async close() {
      http.close();
      // Servers still starting are stopped once they have started.
      await Promise.allSettled(started.values());
      await Promise.allSettled(stops.map((stop) => stop()));
    },
  };
}

export default async function setup(project: TestProject) {
  state[STATE] ??= startBroker();
  const broker = await state[STATE];
  broker.users++;
  project.provide(SHARED_FIXTURES as never, broker.url as never);
  return async () => {
    if (--broker.users > 0) return;
    delete state[STATE];
    await broker.close();
  };
}
