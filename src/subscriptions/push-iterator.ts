/**
 * An async iterator fed by pushes, for GraphQL subscriptions. Unlike an async generator, it can
 * be ended at any moment: return() settles a pending next() at once and runs the cleanup, so an
 * idle subscription that the client closes does not linger until its next event.
 */
export class PushIterator<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private waiting: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | null = null;
  private failed: unknown = null;
  private done = false;
  /** complete() was called: end once the queue is drained. */
  private completing = false;

  constructor(private readonly cleanup: () => void) {}

  push(value: T): void {
    if (this.done) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w.resolve({ value, done: false });
    } else this.queue.push(value);
  }

  /** The source has nothing more to send: end the stream once what is queued has been taken. */
  complete(): void {
    if (this.done) return;
    this.completing = true;
    if (this.queue.length === 0) this.end();
  }

  fail(error: unknown): void {
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
      if (this.queue.length === 0 && this.completing) this.end();
      return Promise.resolve({ value, done: false });
    }
    if (this.failed) {
      const e = this.failed;
      this.end();
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

  private end(): void {
    if (this.done) return;
    this.done = true;
    this.queue.length = 0;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w.resolve({ value: undefined, done: true });
    }
    this.cleanup();
  }
}
