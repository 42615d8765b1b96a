import { connect, createServer, type Socket } from 'node:net';

export interface TcpSwitch {
  /** `127.0.0.1:<port>`: connect here instead of the target. */
  address: string;
  /** The target becomes unreachable: open connections are cut, new ones closed at once. */
  cut(): void;
  /**
   * Cuts as `cut` does the moment a client sends bytes holding `marker` (e.g. `COMMIT;`): with
   * `deliver` the target still gets those bytes (then the end of its connection), without it they
   * are lost. Resolves once cut (delivered: once the target closed that connection, having run
   * what it got). The statement reached the server, or not, but its answer never comes back.
   */
  cutOnSending(marker: string, opts: { deliver: boolean }): Promise<void>;
  /** Connections reach the target again. */
  restore(): void;
  close(): Promise<void>;
}

/** A TCP proxy to `target` (`host:port`) the test switches off and on: a server going away without stopping the real one. */
export async function tcpSwitch(target: string): Promise<TcpSwitch> {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const open = new Set<Socket>();
  /** Upstream sockets ending gracefully (their last bytes still go out): a cut leaves them to close. */
  const ending = new WeakSet<Socket>();
  let up = true;
  let trap: { marker: string; deliver: boolean; sprung: () => void } | null = null;
  const cutAll = () => {
    up = false;
    for (const socket of open) if (!ending.has(socket)) socket.destroy();
  };
  const server = createServer((client) => {
    if (!up) return client.destroy();
    const upstream = connect(port, host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('close', () => {
      if (!ending.has(upstream)) upstream.destroy();
    });
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      const armed = trap;
      if (armed && chunk.includes(armed.marker)) {
        trap = null;
        if (armed.deliver) {
          // Resolved once the server closed its side: it read the bytes and the end, so it ran them.
          ending.add(upstream);
          upstream.unpipe(client);
          upstream.resume(); // read the server's answer into nothing, until its end
          upstream.once('close', () => armed.sprung());
          upstream.end(chunk);
        }
        cutAll();
        if (!armed.deliver) armed.sprung();
        return;
      }
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${own}`,
    cut: cutAll,
    cutOnSending(marker, { deliver }) {
      return new Promise<void>((sprung) => {
        trap = { marker, deliver, sprung };
      });
    },
    restore() {
      up = true;
    },
    async close() {
      trap = null;
      cutAll();
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
