/**
 * Runs tasks one at a time per key, in the order they arrive; a key with nothing queued holds no
 * memory. A task that fails does not stop the ones queued behind it. A task must not wait for
 * another task of its own key: that one is queued behind it.
 */
export class OneAtATime {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => {},
      () => {},
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task running or queued (for tests). */
  get busyKeys(): number {
    return this.tails.size;
  }
}
