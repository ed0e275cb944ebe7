import { parse } from 'graphql';
import { HEAP_BYTES_PER_CHAR, OperationCache } from './operation-cache.js';

const text = (n: number) => `subscription S${n} { ticks }`;

describe('OperationCache (graphql-ws documents that passed)', () => {
  it('returns what it remembered, by text', () => {
    const cache = new OperationCache(1024 * 1024);
    const doc = parse(text(1));
    cache.remember(text(1), doc);
    expect(cache.get(text(1))).toBe(doc);
    expect(cache.get(text(2))).toBeUndefined();
  });

  it('stays within its budget in bytes, dropping the least recently used first', () => {
    const each = text(1).length * HEAP_BYTES_PER_CHAR;
    const cache = new OperationCache(each * 3);
    for (const n of [1, 2, 3]) cache.remember(text(n), parse(text(n)));
    cache.get(text(1)); // now the most recently used
    cache.remember(text(4), parse(text(4)));
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBeLessThanOrEqual(each * 3);
    expect(cache.get(text(2))).toBeUndefined();
    expect(cache.get(text(1))).toBeDefined();
    expect(cache.get(text(4))).toBeDefined();
  });

  it('never keeps a document larger than the whole budget, and keeps nothing with a budget of 0', () => {
    const big = `subscription { ${'ticks '.repeat(1000)}}`;
    const cache = new OperationCache(1024);
    cache.remember(big, parse(big));
    expect(cache.size).toBe(0);
    const none = new OperationCache(0);
    none.remember(text(1), parse(text(1)));
    expect(none.size).toBe(0);
    expect(none.bytes).toBe(0);
  });
});
