import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy a test can make go quiet the way a network does without telling anyone (a
 * failover, a lost route, a frozen peer): the connections stay open, what either side sends is
 * dropped, and nobody sees a FIN or a RST.
 */
export class TcpProxy {
  /** New connections and existing ones alike drop everything. */
  silent = false;
  private readonly frozen = new WeakSet<Socket>();
  private readonly clients = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((client) => {
      const upstream = createConnection(target);
      proxy!.clients.add(client);
      const passes = () => !proxy!.silent && !proxy!.frozen.has(client);
      client.on('data', (d) => passes() && upstream.write(d));
      upstream.on('data', (d) => passes() && client.write(d));
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        a.on('error', () => {});
        a.on('close', () => (b.destroy(), proxy!.clients.delete(client)));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new TcpProxy(server, (server.address() as AddressInfo).port);
    return proxy;
  }

  /** Every connection open now drops everything from here on; new ones pass. */
  freezeExisting(): void {
    for (const c of this.clients) this.frozen.add(c);
  }

  async close(): Promise<void> {
    for (const c of this.clients) c.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
