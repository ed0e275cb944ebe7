import { jest } from '@jest/globals';
import type { AppConfig } from '../config/config.js';
import { InMemoryEventBus, type MatchSignal } from '../realtime/event-bus.js';
import { MatchCache } from './match-cache.js';
import { MATCH_ID, waitingMatch } from './spec/loaded-matches.js';

const config = { matchCacheTtlMs: 60_000 } as AppConfig;
const at = (version: number) => waitingMatch(['p0', null], { version, lastEventSeq: version });
const signal = (version: number): MatchSignal => ({ matchId: MATCH_ID, lastSeq: version, version, turnPlayerId: null });

describe('MatchCache', () => {
  let bus: InMemoryEventBus;
  let cache: MatchCache;
  beforeEach(() => {
    bus = new InMemoryEventBus();
    cache = new MatchCache(bus, config);
  });

  it('lets go of expired entries as new ones come, not only when they are read', () => {
    const short = new MatchCache(bus, { matchCacheTtlMs: 1_000 } as AppConfig);
    const now = jest.spyOn(Date, 'now');
    try {
      now.mockReturnValue(10_000);
      for (let i = 0; i < 5; i++) short.set({ ...at(1), id: `m${i}` });
      now.mockReturnValue(10_500);
      short.set({ ...at(1), id: 'fresh' });
      expect(short.size).toBe(6);
      now.mockReturnValue(11_200); // the first five expired, 'fresh' has not
      short.set({ ...at(1), id: 'newer' });
      expect(short.size).toBe(2);
      expect(short.get('fresh')?.id).toBe('fresh');
    } finally {
      now.mockRestore();
    }
  });

  it('keeps an entry a signal of its own version or an older one announces', async () => {
    cache.set(at(3));
    await bus.publish(signal(3));
    await bus.publish(signal(2));
    expect(cache.get(MATCH_ID)?.version).toBe(3);
  });

  it('drops an entry once a newer version is signalled', async () => {
    cache.set(at(3));
    await bus.publish(signal(4));
    expect(cache.get(MATCH_ID)).toBeUndefined();
  });

  // Two instances: this one's commit (version 3) comes back from PostgreSQL after the other's
  // later commit (version 4) was signalled here. Caching it would serve reads a command behind.
  it('refuses an older record set after a newer version was signalled, and takes that version or a later one', async () => {
    await bus.publish(signal(4));
    cache.set(at(3));
    expect(cache.get(MATCH_ID)).toBeUndefined();
    cache.set(at(4));
    expect(cache.get(MATCH_ID)?.version).toBe(4);
  });

  it('remembers the newest version announced, whatever order the signals come in', async () => {
    cache.set(at(2));
    await bus.publish(signal(5));
    await bus.publish(signal(4));
    cache.set(at(4));
    expect(cache.get(MATCH_ID)).toBeUndefined();
    cache.set(at(6));
    expect(cache.get(MATCH_ID)?.version).toBe(6);
  });

  it('still refuses an older record after a resync: a version once signalled stays a lower bound', async () => {
    await bus.publish(signal(4));
    bus.resync();
    cache.set(at(3));
    expect(cache.get(MATCH_ID)).toBeUndefined();
  });

  it('never goes back in time on its own commits either', () => {
    cache.set(at(5));
    cache.set(at(4));
    expect(cache.get(MATCH_ID)?.version).toBe(5);
  });
});
