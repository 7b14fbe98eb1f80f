/**
 * Stand-in for the network between the product and a server (Redis) on another host: a TCP relay
 * on a port of its own that passes every byte both ways. `vanish()` is that host going away without
 * a word, as a killed container or a machine that lost power does: the open connections neither
 * answer nor close (nothing passes, no FIN, no RST), and new ones are refused. `restore()` is the
 * server back at the same name on a new host: new connections reach it, while the old ones stay
 * silent for ever (their packets go to an address nobody answers).
 */
import net from 'node:net';
import { freePort } from '../ports.js';

export interface NetworkPath {
  /** The port the product connects to. */
  port: number;
  /** The connections open now. */
  open(): number;
  vanish(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Relay {
  client: net.Socket;
  server: net.Socket;
  silent: boolean;
}

export async function startNetworkPath(targetPort: number, targetHost = '127.0.0.1'): Promise<NetworkPath> {
  const port = await freePort();
  const relays = new Set<Relay>();
  const accept = (client: net.Socket) => {
    const server = net.connect(targetPort, targetHost);
    const relay: Relay = { client, server, silent: false };
    relays.add(relay);
    client.on('data', (d: Buffer) => {
      if (!relay.silent) server.write(d);
    });
    server.on('data', (d: Buffer) => {
      if (!relay.silent) client.write(d);
    });
    const end = () => {
      // A silent connection says nothing, not even that its far end closed.
      if (relay.silent) return;
      client.destroy();
      server.destroy();
      relays.delete(relay);
    };
    for (const s of [client, server]) {
      s.on('close', end);
      s.on('error', () => undefined);
    }
  };
  let listener: net.Server | undefined;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const l = net.createServer(accept);
      l.once('error', reject);
      l.listen(port, '127.0.0.1', () => {
        listener = l;
        resolve();
      });
    });
  // Stops taking connections at once (a server's close callback would wait for the open ones to end).
  const stopListening = async () => {
    listener?.close();
    listener = undefined;
  };
  await listen();
  return {
    port,
    open: () => [...relays].filter((r) => !r.silent).length,
    async vanish() {
      await stopListening();
      for (const r of relays) r.silent = true;
    },
    restore: listen,
    async close() {
      await stopListening();
      for (const r of relays) {
        r.client.destroy();
        r.server.destroy();
      }
      relays.clear();
    },
  };
}
