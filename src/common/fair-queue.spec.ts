import { FairQueue } from './fair-queue.js';

const served = <T>(q: FairQueue<T>): T[] => {
  const out: T[] = [];
  for (let item = q.shift(); item !== undefined; item = q.shift()) out.push(item);
  return out;
};

describe('FairQueue', () => {
  it("serves the keys in turns, each key's items in order", () => {
    const q = new FairQueue<string>();
    for (const item of ['a1', 'a2', 'a3', 'a4']) q.push('a', item);
    q.push('b', 'b1');
    q.push('b', 'b2');
    q.push('c', 'c1');
    expect(q.size).toBe(7);
    expect(served(q)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect(q.size).toBe(0);
  });

  it('puts a key that comes back behind the keys already waiting', () => {
    const q = new FairQueue<string>();
    q.push('a', 'a1');
    q.push('b', 'b1');
    expect(q.shift()).toBe('a1');
    q.push('a', 'a2');
    q.push('c', 'c1');
    expect(served(q)).toEqual(['b1', 'a2', 'c1']);
  });

  it('drains everything, empty afterwards', () => {
    const q = new FairQueue<number>();
    q.push('a', 1);
    q.push('b', 2);
    q.push('a', 3);
    expect(q.drain().sort()).toEqual([1, 2, 3]);
    expect(q.size).toBe(0);
    expect(q.shift()).toBeUndefined();
  });
});
