// A TCP relay on a fixed loopback port in front of the service, so the service can be stopped
// and started again on the same files (on whatever port is free) while the fault proxies and
// the clients' cache files keep the one address they were given. While no service is set,
// connections are closed at once, as a stopped service's would be refused.
import { connect, createServer, type Socket } from 'node:net';

export interface Relay {
  port: number;
  /** Where new connections go; undefined refuses them. */
  setTarget(port: number | undefined): void;
  close(): Promise<void>;
}

export async function startRelay(): Promise<Relay> {
  let target: number | undefined;
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const server = createServer((inbound) => {
    track(inbound);
    if (target === undefined) {
      inbound.destroy();
      return;
    }
    const outbound = connect({ host: '127.0.0.1', port: target });
    track(outbound);
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  return {
    port: (server.address() as { port: number }).port,
    setTarget(port) {
      target = port;
      // Connections to a stopped service break, as they would without the relay.
      if (port === undefined) for (const s of sockets) s.destroy();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
