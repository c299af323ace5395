// A TCP relay in front of a real server, for the faults no server makes by itself: a connection
// that dies without a FIN or RST (a NAT or load balancer dropping an idle flow, a frozen peer).
// freeze() stops forwarding, both ways, on every connection open at that moment and closes none
// of them; connections opened afterwards are relayed as usual (the NAT forgot one flow, not the
// route). refuse() also cuts every later connection at once (the server is unreachable).
import { createServer, connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export interface Relay {
  /** `host:port` of the relay on 127.0.0.1. */
  readonly host: string;
  readonly port: number;
  /** Stops forwarding on the connections open now, without closing them. */
  freeze(): void;
  /** Closes every later connection as soon as it is accepted (on top of freeze()). */
  refuse(): void;
  /** Relays later connections again (frozen ones stay frozen). */
  accept(): void;
  /** Closes the relay and every connection through it. */
  close(): Promise<void>;
}

/** Starts a relay on a free port of 127.0.0.1 to `target` (a host and port). */
export async function startRelay(target: { host: string; port: number }): Promise<Relay> {
  const open = new Set<{ client: Socket; upstream: Socket; frozen: boolean }>();
  let refusing = false;
  const server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    const pair = { client, upstream, frozen: false };
    open.add(pair);
    // Data is written only while not frozen: a frozen flow swallows what arrives, as a dropped
    // NAT entry does, and never closes either side.
    client.on('data', (chunk) => {
      if (!pair.frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!pair.frozen) client.write(chunk);
    });
    const end = (): void => {
      if (pair.frozen) return;
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    freeze() {
      for (const pair of open) pair.frozen = true;
    },
    refuse() {
      refusing = true;
    },
    accept() {
      refusing = false;
    },
    close() {
      for (const pair of open) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      open.clear();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** `url` with its host and port replaced by the relay's. */
export function throughRelay(url: string, relay: Relay): string {
  const relayed = new URL(url);
  relayed.hostname = relay.host;
  relayed.port = String(relay.port);
  return relayed.href;
}
