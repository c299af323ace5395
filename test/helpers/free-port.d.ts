// The types of free-port.mjs (a .d.ts, not .d.mts, so that `import '…/free-port'` resolves in tsc).
import type { Server } from 'node:net';

/** Binds `server` (node:http or node:net) to 127.0.0.1 on a port the system picks; resolves with it. */
export declare function listenOnFreePort(server: Server): Promise<number>;
/**
 * A loopback port that nothing listens on (yet): for a server started in another process, or
 * an address that refuses connections.
 */
export declare function freePort(): Promise<number>;
