import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/** A real graphql-ws client collecting everything one subscription delivers. */
export class Subscriber<T = Record<string, unknown>> {
  readonly received: T[] = [];
  readonly errors: unknown[] = [];
  private readonly client: Client;
  private waiters: { pred: (r: T[]) => boolean; resolve: () => void }[] = [];
  private dispose: (() => void) | null = null;
  closedWith: number | null = null;
  /** The server acknowledged the connection (its onConnect accepted it). */
  connected = false;
  /** The server completed the subscription. */
  completed = false;

  constructor(httpUrl: string, token?: string) {
    this.client = createClient({
      url: httpUrl.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: token ? { authorization: `Bearer ${token}` } : {},
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => {}, // the close code is recorded below
      on: {
        closed: (e) => (this.closedWith = (e as { code?: number }).code ?? null),
        connected: () => (this.connected = true),
      },
    });
  }

  subscribe(query: string, variables: Record<string, unknown>, pick: (data: Record<string, unknown>) => T): this {
    this.dispose = this.client.subscribe<Record<string, unknown>>(
      { query, variables },
      {
        next: (r) => {
          if (r.errors) this.errors.push(r.errors);
          if (r.data) this.received.push(pick(r.data));
          this.waiters = this.waiters.filter((w) => (w.pred(this.received) ? (w.resolve(), false) : true));
        },
        error: (e) => this.errors.push(e),
        complete: () => (this.completed = true),
      },
    );
    return this;
  }

  /** Resolves once `pred` holds of everything received so far. */
  until(pred: (r: T[]) => boolean, timeoutMs = 20_000): Promise<void> {
    if (pred(this.received)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`subscription: condition not met in ${timeoutMs} ms (${this.received.length} received, errors ${JSON.stringify(this.errors)})`),
          ),
        timeoutMs,
      );
      this.waiters.push({ pred, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /** Waits for the socket to close (e.g. refused at connection) and returns its close code. */
  async closed(timeoutMs = 20_000): Promise<number | null> {
    const until = Date.now() + timeoutMs;
    while (this.closedWith === null && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    return this.closedWith;
  }

  /** Waits for the server to acknowledge the connection. */
  async ready(timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!this.connected) {
      if (Date.now() > until || this.closedWith !== null) throw new Error(`not connected (closed with ${this.closedWith})`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async close(): Promise<void> {
    this.dispose?.();
    await this.client.dispose();
  }
}
