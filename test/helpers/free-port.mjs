// The one way tests and benches get a port: bind 127.0.0.1 on port 0 and let the system choose,
// never a fixed port (two runs, or a developer's own server, would collide). A .mjs file so that
// plain Node (the benches, test/webhook/support/servers.mjs) can import it as well as vitest.
import { createServer } from 'node:net';

/** Binds `server` (node:http or node:net) to 127.0.0.1 on a port the system picks; resolves with it. */
export function listenOnFreePort(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(/** @type {import('node:net').AddressInfo} */ (server.address()).port);
    });
  });
}

/**
 * A loopback port that nothing listens on (yet): for a server started in another process, or
 * an address that refuses connections.
 */
export async function freePort() {
  const server = createServer();
  const port = await listenOnFreePort(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}
