import { TokenCache } from './token-cache.js';

describe('TokenCache', () => {
  const ann = { id: 'a', name: 'Ann' };

  it('trusts an entry for its TTL only', () => {
    let now = 1_000;
    const cache = new TokenCache(5_000, () => now);
    cache.set('d1', ann);
    now += 4_999;
    expect(cache.get('d1')).toEqual(ann);
    now += 1;
    expect(cache.get('d1')).toBeUndefined();
  });

  it("evicts every digest of a player whose token changed, and no one else's", () => {
    const cache = new TokenCache(60_000);
    cache.set('d1', ann);
    cache.set('d2', { id: 'b', name: 'Bob' });
    cache.evictPlayer('a');
    expect(cache.get('d1')).toBeUndefined();
    expect(cache.get('d2')).toEqual({ id: 'b', name: 'Bob' });
  });

  it('drops expired digests as new ones come, not only when they are read', () => {
    let now = 1_000;
    const cache = new TokenCache(5_000, () => now);
    cache.set('d1', ann);
    cache.set('d2', ann);
    now += 5_000;
    cache.set('d3', { id: 'b', name: 'Bob' });
    expect(cache.size).toBe(1);
    expect(cache.get('d3')).toEqual({ id: 'b', name: 'Bob' });
  });
});
