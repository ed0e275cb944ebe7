import { jest } from '@jest/globals';
import { MatchesRepository } from '../src/matches/matches.repository.js';
import { EVENT_BUS, type InMemoryEventBus } from '../src/realtime/event-bus.js';
import { FeedReads } from '../src/subscriptions/feed-reads.js';
import { startTestApp, type TestApp } from './support/app.js';
import { viewOf } from './support/driver.js';
import { feedsStarted } from './support/feeds.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';
import type { GqlClient } from './support/gql.js';
import { Subscriber } from './support/ws.js';

const S_EVENTS = `subscription($id: ID!) { matchEvents(matchId: $id) { seq type match { version } } }`;
const PLAY = 'mutation($i: PlayTileInput!) { playTile(input: $i) { version } }';
const MATCHES = 12;

type FeedEvent = { seq: number; type: string; match: { version: number } };

/**
 * A resync (the LISTEN connection came back: signals may have been lost) makes every open feed
 * read the database at once. FeedReads queues those reads in the process, at most half the pool
 * at a time, so players' commands keep the rest; every feed still gets what it missed.
 */
describe('feed reads after a resync', () => {
  let app: TestApp;

  beforeAll(async () => {
    // No periodic recheck: it would find the same lost signals on its own, and read for them too.
    app = await startTestApp({ DB_POOL_SIZE: '4', FEED_RECHECK_MS: '0' });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('reads for every feed at most half the pool at a time, and every feed gets the events it missed', async () => {
    const [a, b] = await Promise.all([app.player('a'), app.player('b')]);
    const matches: { id: string; bySeat: Map<number, GqlClient> }[] = [];
    for (let i = 0; i < MATCHES; i++) {
      const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
      const bySeat = new Map<number, GqlClient>([[0, a]]);
      bySeat.set((await b.request<{ joinMatch: MatchT }>(M_JOIN, { id: createMatch.id })).joinMatch.mySeat!, b);
      matches.push({ id: createMatch.id, bySeat });
    }
    const feeds = matches.map((m) => new Subscriber<FeedEvent>(app.url).subscribe(S_EVENTS, { id: m.id }, (d) => d.matchEvents as FeedEvent));
    await Promise.all(feeds.map((f) => f.ready()));
    for (const m of matches) await feedsStarted(app.server, { matchId: m.id });
    try {
      // One move in each match whose signal is lost, as when the LISTEN connection drops.
      const bus = app.server.app.get<InMemoryEventBus>(EVENT_BUS);
      const lost = jest.spyOn(bus, 'publish').mockImplementation(async () => {});
      const played: number[] = [];
      for (const m of matches) {
        const view = await viewOf(m.bySeat.get(0)!, m.id);
        const mover = m.bySeat.get(view.turn!)!;
        const mine = await viewOf(mover, m.id);
        const mv = mine.legalMoves[0];
        played.push(
          (await mover.request<{ playTile: { version: number } }>(PLAY, { i: { matchId: m.id, tile: mv.tile, end: mv.end } })).playTile.version,
        );
      }
      lost.mockRestore();
      await new Promise((r) => setTimeout(r, 200));
      expect(feeds.every((f) => f.received.length === 0)).toBe(true);

      // Count the feeds' reads in flight at once.
      const repo = app.server.app.get(MatchesRepository);
      let inFlight = 0;
      let peak = 0;
      const counted =
        <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
        async (...args: A): Promise<R> => {
          peak = Math.max(peak, ++inFlight);
          try {
            return await read(...args);
          } finally {
            inFlight--;
          }
        };
      const [readEvents, readMatch] = [repo.eventsAfter.bind(repo), repo.find.bind(repo)];
      const eventsAfter = jest.spyOn(repo, 'eventsAfter').mockImplementation(counted(readEvents));
      const find = jest.spyOn(repo, 'find').mockImplementation(counted(readMatch));
      let tableReads = 0;
      try {
        bus.resync();
        await Promise.all(feeds.map((f) => f.until((r) => r.length >= 1)));
        tableReads = eventsAfter.mock.calls.length;
      } finally {
        eventsAfter.mockRestore();
        find.mockRestore();
      }
      // Every feed read what it missed from the table.
      expect(tableReads).toBe(MATCHES);
      const concurrency = app.server.app.get(FeedReads).concurrency;
      expect(concurrency).toBe(2);
      expect(peak).toBeGreaterThan(0);
      expect(peak).toBeLessThanOrEqual(concurrency);
      for (const f of feeds) expect(f.errors).toEqual([]);
      // Each feed got its own match's move, the match as that move left it, and nothing else.
      expect(feeds.map((f) => f.received.map((e) => [e.type, e.match.version]))).toEqual(played.map((version) => [['TILE_PLAYED', version]]));
    } finally {
      await Promise.all(feeds.map((f) => f.close()));
    }
  });
});
