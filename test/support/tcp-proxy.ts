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
  private readonly server: Server;

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => this.pipe(client));
  }

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Every connection open now drops everything from here on; new ones pass. */
  freezeExisting(): void {
    for (const c of this.clients) this.frozen.add(c);
  }

  async close(): Promise<void> {
    for (const c of this.clients) c.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private pipe(client: Socket): void {
    const upstream = createConnection(this.target);
    this.clients.add(client);
    const passes = () => !this.silent && !this.frozen.has(client);
    client.on('data', (d) => passes() && upstream.write(d));
    upstream.on('data', (d) => passes() && client.write(d));
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on('error', () => {});
      a.on('close', () => (b.destroy(), this.clients.delete(client)));
    }
  }
}
