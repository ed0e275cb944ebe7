/**
 * An async iterator fed by pushes, for GraphQL subscriptions. Unlike an async generator, it can
 * be ended at any moment: return() settles a pending next() at once and runs the cleanup, so an
 * idle subscription that the client closes does not linger until its next event.
 *
 * Its queue is bounded: graphql-ws takes the next value only once the previous one was written
 * to the socket, so a reader that stops reading makes the queue grow. At `maxQueued` values the
 * iterator ends, drops what it held and calls `overflow` (which closes the connection: the client
 * resumes with afterSeq), so a paused reader costs at most that many values.
 */
export class PushIterator<T> implements AsyncIterableIterator<T> {
  /**
   * Set by the transport: delivers a value itself, past the reader, while the reader waits with
   * nothing queued (everything before it was already handed over). True: delivered; false: the
   * reader takes it as usual; a promise: that answer once known, and whatever comes meanwhile
   * (values, completion, failure) waits behind it, so the order never changes.
   */
  direct?: (value: T) => boolean | Promise<boolean>;
  /** A direct delivery still deciding, and what arrived behind it, in order. */
  private deciding: Promise<void> | null = null;
  private readonly behind: (() => void)[] = [];
  private readonly queue: T[] = [];
  private drainWaiters: (() => void)[] = [];
  private waiting: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | null = null;
  private failed: unknown = null;
  private done = false;
  /** complete() was called: end once the queue is drained. */
  private completing = false;

  constructor(
    private readonly cleanup: () => void,
    private readonly maxQueued = Infinity,
    private readonly overflow: () => void = () => {},
  ) {}

  push(value: T): void {
    if (this.done) return;
    if (this.deciding) {
      this.behind.push(() => this.push(value));
      return;
    }
    if (this.waiting && this.direct) {
      const delivered = this.direct(value);
      if (delivered === true) return;
      if (delivered !== false) {
        this.deciding = delivered.then(
          (ok) => this.decided(ok, value),
          () => this.decided(false, value),
        );
        return;
      }
    }
    this.enqueue(value);
  }

  /** A direct delivery's answer: the reader takes the value if it was not delivered, then what waited behind it runs. */
  private decided(delivered: boolean, value: T): void {
    this.deciding = null;
    if (!delivered) this.enqueue(value);
    while (!this.deciding && this.behind.length > 0) this.behind.shift()!();
    if (this.isDrained()) this.wakeDrainWaiters();
  }

  private enqueue(value: T): void {
    if (this.done) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w.resolve({ value, done: false });
    } else if (this.queue.length >= this.maxQueued) {
      this.end();
      this.overflow();
    } else this.queue.push(value);
  }

  /** Ended: by the reader, by a failure, by completion or by overflow. */
  get ended(): boolean {
    return this.done;
  }

  /** Values pushed and not yet taken. */
  get queued(): number {
    return this.queue.length;
  }

  /**
   * Resolves once every value pushed has been handed over: taken by the reader, or delivered
   * directly (a direct delivery still deciding, and what waits behind it, count as not yet); or
   * the iterator ended. For a producer to pace itself: a page of events whose results take a while
   * to execute is not followed by the next page until it is out.
   */
  drained(): Promise<void> {
    if (this.isDrained() || this.done) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private isDrained(): boolean {
    return this.queue.length === 0 && this.deciding === null && this.behind.length === 0;
  }

  /** The source has nothing more to send: end the stream once what is queued has been taken. */
  complete(): void {
    if (this.done) return;
    if (this.deciding) {
      this.behind.push(() => this.complete());
      return;
    }
    this.completing = true;
    if (this.queue.length === 0) this.end();
  }

  fail(error: unknown): void {
    if (this.deciding) {
      this.behind.push(() => this.fail(error));
      return;
    }
    this.failed = error;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      this.end();
      w.reject(error);
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.queue.length > 0) {
      const value = this.queue.shift()!;
      if (this.queue.length === 0) {
        if (this.completing) this.end();
        if (this.isDrained()) this.wakeDrainWaiters();
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.failed) {
      const e = this.failed;
      this.end();
      // The feed's own failure, passed on as it came (an ApiError or a database error).
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(e);
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  return(): Promise<IteratorResult<T>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error?: unknown): Promise<IteratorResult<T>> {
    this.end();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  private wakeDrainWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w();
  }

  private end(): void {
    if (this.done) return;
    this.done = true;
    this.queue.length = 0;
    this.behind.length = 0;
    this.wakeDrainWaiters();
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w.resolve({ value: undefined, done: true });
    }
    this.cleanup();
  }
}
