import WebSocket from 'ws';

/**
 * A graphql-transport-ws connection at the protocol level, for the limits' tests: it counts the
 * bytes it receives, can stop reading (a paused reader) and reports the close code.
 */
export class RawWs {
  readonly ws: WebSocket;
  readonly messages: { id?: string; type: string; payload?: unknown }[] = [];
  /** Every message as the server wrote it, byte for byte. */
  readonly raw: string[] = [];
  bytes = 0;
  closeCode: number | null = null;
  closeReason = '';
  private readonly opened: Promise<void>;
  private readonly closedP: Promise<number>;

  /** `localAddress`: connect from this address of the machine (any of 127.0.0.0/8 is loopback). */
  constructor(httpUrl: string, opts: { token?: string; init?: boolean; localAddress?: string } = {}) {
    this.ws = new WebSocket(httpUrl.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws', {
      perMessageDeflate: false,
      ...(opts.localAddress ? { localAddress: opts.localAddress } : {}),
    });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with HTTP ${res.statusCode}`)));
      this.ws.once('error', reject);
    });
    this.closedP = new Promise((resolve) =>
      this.ws.once('close', (code, reason) => {
        this.closeCode = code;
        this.closeReason = reason.toString();
        resolve(code);
      }),
    );
    this.ws.on('message', (data: Buffer) => {
      this.bytes += data.length;
      this.raw.push(data.toString());
      this.messages.push(JSON.parse(data.toString()) as RawWs['messages'][number]);
    });
    if (opts.init !== false)
      void this.opened.then(
        () => this.send({ type: 'connection_init', payload: opts.token ? { authorization: `Bearer ${opts.token}` } : {} }),
        () => {},
      );
  }

  /** Resolves once the server acknowledged the connection. */
  async ready(): Promise<void> {
    await this.opened;
    await this.until(() => this.messages.some((m) => m.type === 'connection_ack'));
  }

  /** Rejects with the HTTP status when the upgrade is refused. */
  open(): Promise<void> {
    return this.opened;
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  subscribe(id: string, query: string, variables: Record<string, unknown> = {}): void {
    this.send({ id, type: 'subscribe', payload: { query, variables } });
  }

  of(id: string): RawWs['messages'] {
    return this.messages.filter((m) => m.id === id);
  }

  /** Stops (or resumes) reading from the socket: the server's writes then back up. */
  pause(): void {
    (this.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  }

  resume(): void {
    (this.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  }

  closed(): Promise<number> {
    return this.closedP;
  }

  async until(pred: () => boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred()) {
      if (Date.now() > deadline)
        throw new Error(`raw ws: condition not met in ${timeoutMs} ms (${this.messages.length} messages, close ${this.closeCode})`);
      if (this.closeCode !== null && !pred()) throw new Error(`raw ws: closed with ${this.closeCode} ${this.closeReason}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  terminate(): void {
    this.ws.terminate();
  }
}
