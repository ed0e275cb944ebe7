/**
 * A queue served in turns by key: each key's items in the order they came, the keys round-robin.
 * With one FIFO for everyone, whoever queues the most work delays everyone else by all of it; here
 * one key's backlog costs another key at most one item per turn.
 */
export class FairQueue<T> {
  /** Keys with items waiting, in the order they are served next (Map order: insertion). */
  private readonly byKey = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Items of one key waiting. */
  sizeOf(key: string): number {
    return this.byKey.get(key)?.length ?? 0;
  }

  push(key: string, item: T): void {
    const items = this.byKey.get(key);
    if (items) items.push(item);
    else this.byKey.set(key, [item]);
    this.count++;
  }

  /** The next key's oldest item; that key, if it has more, goes to the back of the line. */
  shift(): T | undefined {
    const next = this.byKey.entries().next();
    if (next.done) return undefined;
    const [key, items] = next.value;
    const item = items.shift() as T;
    this.byKey.delete(key);
    if (items.length > 0) this.byKey.set(key, items);
    this.count--;
    return item;
  }

  /** Every item, emptying the queue. */
  drain(): T[] {
    const all = [...this.byKey.values()].flat();
    this.byKey.clear();
    this.count = 0;
    return all;
  }
}
