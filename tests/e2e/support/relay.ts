import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay on a fixed loopback port in front of the service, so the core keeps one base URL
 * while the service behind it is stopped and started again (on whatever port it gets). While
 * no target is set, connections are refused at once, as with a service that is down.
 */
export interface Relay {
  port: number;
  setTarget(port: number | undefined): void;
  close(): Promise<void>;
}

export async function startRelay(target: number | undefined): Promise<Relay> {
  let current = target;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (current === undefined) {
      client.destroy();
      return;
    }
    const upstream = connect(current, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.pipe(upstream).pipe(client);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    setTarget(next) {
      current = next;
      // Open keep-alive connections to the old target must not survive it.
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
