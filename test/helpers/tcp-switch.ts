import { connect, createServer, type Socket } from 'node:net';

export interface TcpSwitch {
  /** `127.0.0.1:<port>`: connect here instead of the target. */
  address: string;
  /** The target becomes unreachable: open connections are cut, new ones closed at once. */
  cut(): void;
  /** Connections reach the target again. */
  restore(): void;
  close(): Promise<void>;
}

/** A TCP proxy to `target` (`host:port`) the test switches off and on: a server going away without stopping the real one. */
export async function tcpSwitch(target: string): Promise<TcpSwitch> {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const open = new Set<Socket>();
  let up = true;
  const server = createServer((client) => {
    if (!up) return client.destroy();
    const upstream = connect(port, host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${own}`,
    cut() {
      up = false;
      for (const socket of open) socket.destroy();
    },
    restore() {
      up = true;
    },
    async close() {
      up = false;
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
