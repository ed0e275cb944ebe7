/**
 * Thousands of graphql-ws client sockets for the connection benchmarks, held by child processes
 * (bench/support/socket-holder.ts), so that the server under test can hold up to its own
 * open-file limit: the sockets' other ends are in processes of their own.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { monotonicMs, type FromHolder, type HeldSocket, type ToHolder } from './socket-holder.js';

export { monotonicMs, type HeldSocket };

const HOLDER = fileURLToPath(new URL('./socket-holder.js', import.meta.url));

export interface Delivery {
  watching: number;
  reached: number;
  /** Monotonic ms of the last subscriber's first event after arm(), 0 when none arrived. */
  lastAt: number;
  failed: number;
  firstError: string | null;
}

class Holder {
  private readonly child: ChildProcess;
  private waiting: ((m: FromHolder) => void)[] = [];

  constructor() {
    this.child = fork(HOLDER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: FromHolder) => this.waiting.shift()?.(m));
  }

  ask(m: ToHolder): Promise<FromHolder> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.send(m);
    });
  }

  tell(m: ToHolder): void {
    this.child.send(m);
  }

  exited(): Promise<void> {
    return new Promise((resolve) => (this.child.exitCode !== null ? resolve() : this.child.once('exit', () => resolve())));
  }
}

export class Fleet {
  private constructor(private readonly holders: Holder[]) {}

  /** Opens `sockets` over ceil(n / perProcess) child processes, `batch` at a time in each. */
  static async open(
    wsUrl: string,
    sockets: HeldSocket[],
    perProcess = 6_000,
    batch = 200,
  ): Promise<{ fleet: Fleet; subscribed: number; failed: number; firstError: string | null }> {
    const n = Math.max(1, Math.ceil(sockets.length / perProcess));
    const holders = Array.from({ length: n }, () => new Holder());
    // Round-robin shares: each process holds subscribers of every match.
    const shares = holders.map((_, i) => sockets.filter((_s, k) => k % n === i));
    const opened = await Promise.all(holders.map((h, i) => h.ask({ type: 'open', wsUrl, sockets: shares[i], batch })));
    let subscribed = 0;
    let failed = 0;
    let firstError: string | null = null;
    for (const o of opened) {
      if (o.type !== 'opened') continue;
      subscribed += o.subscribed;
      failed += o.failed;
      firstError ??= o.firstError;
    }
    return { fleet: new Fleet(holders), subscribed, failed, firstError };
  }

  /** From now on, each subscriber of the match records its first event's arrival. */
  async arm(matchId: string): Promise<void> {
    for (const h of this.holders) h.tell({ type: 'arm', matchId });
    await this.status(matchId); // answers come in order: every holder has armed
  }

  async status(matchId: string): Promise<Delivery> {
    const all = await Promise.all(this.holders.map((h) => h.ask({ type: 'status', matchId })));
    const out: Delivery = { watching: 0, reached: 0, lastAt: 0, failed: 0, firstError: null };
    for (const s of all) {
      if (s.type !== 'status') continue;
      out.watching += s.watching;
      out.reached += s.reached;
      out.lastAt = Math.max(out.lastAt, s.lastAt);
      out.failed += s.failed;
      out.firstError ??= s.firstError;
    }
    return out;
  }

  async close(): Promise<void> {
    for (const h of this.holders) h.tell({ type: 'close' });
    await Promise.all(this.holders.map((h) => h.exited()));
  }
}
