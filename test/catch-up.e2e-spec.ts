import { jest } from '@jest/globals';
import { PrismaService } from '../src/database/prisma.service.js';
import { StatsRepository } from '../src/history/stats.repository.js';
import { MatchCache } from '../src/matches/match-cache.js';
import { MatchesRepository } from '../src/matches/matches.repository.js';
import { EVENT_BUS, type EventBus } from '../src/realtime/event-bus.js';
import { startTestApp, type TestApp } from './support/app.js';
import { eventually } from './support/eventually.js';
import { feedsStarted } from './support/feeds.js';
import { longMatch, oneMove } from './support/moves.js';
import { RawWs } from './support/raw-ws.js';

const CATCH_UP = `subscription($id: ID!) { matchEvents(matchId: $id, afterSeq: 0) {
  seq type move { seq seat type tile { high low } end points count }
  match { version turn rounds { number status moves { seq seat type tile { high low } end points count } } }
} }`;

/** Every field an event and its move carry, so a live event and its read-back can be compared whole. */
const EVENT_FIELDS = 'seq type kind seat move { seq round seat type tile { high low } end points count timedOut }';
const LIVE = `subscription($id: ID!) { matchEvents(matchId: $id) { ${EVENT_FIELDS} } }`;
const FROM_START = `subscription($id: ID!) { matchEvents(matchId: $id, afterSeq: 0) { ${EVENT_FIELDS} } }`;
const eventsOf = (ws: RawWs, id: string) =>
  ws.of(id).map((m) => (m.payload as { data: { matchEvents: { seq: number; type: string } } }).data.matchEvents);

describe('matchEvents catch-up', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp({ METRICS: 'true', METRICS_TOKEN: 'metrics-token-for-the-tests' })));
  afterAll(() => app.close());

  it('reads the match, its rounds included, once per batch of events, not once per event', async () => {
    const [a, b] = [await app.player(), await app.player()];
    const { id, bySeat } = await longMatch(a, b);
    const prisma = app.server.app.get(PrismaService);
    while ((await prisma.match.findUniqueOrThrow({ where: { id } })).lastEventSeq < 60) await oneMove(bySeat, id);
    const events = (await prisma.match.findUniqueOrThrow({ where: { id } })).lastEventSeq;

    const before = prisma.statements;
    const ws = new RawWs(app.url);
    await ws.ready();
    ws.subscribe('c', CATCH_UP, { id });
    await ws.until(() => ws.of('c').length >= events);
    const sent = ws.of('c').map((m) => (m.payload as { data: { matchEvents: { seq: number; match: { version: number } } } }).data.matchEvents);
    expect(sent.map((e) => e.seq)).toEqual(Array.from({ length: events }, (_, i) => i + 1));
    // One batch: every event carries the same match, read once (the match, its events, its finished rounds).
    expect(new Set(sent.map((e) => e.match.version)).size).toBe(1);
    expect(prisma.statements - before).toBeLessThanOrEqual(4);
    ws.terminate();
  });

  it("reads the seats' stats once for a whole catch-up, not once per event", async () => {
    const [a, b] = [await app.player(), await app.player()];
    const { id, bySeat } = await longMatch(a, b);
    const prisma = app.server.app.get(PrismaService);
    while ((await prisma.match.findUniqueOrThrow({ where: { id } })).lastEventSeq < 40) await oneMove(bySeat, id);
    const events = (await prisma.match.findUniqueOrThrow({ where: { id } })).lastEventSeq;
    const reads = jest.spyOn(app.server.app.get(StatsRepository), 'ofPlayers');
    const ws = new RawWs(app.url);
    try {
      await ws.ready();
      ws.subscribe(
        's',
        'subscription($id: ID!) { matchEvents(matchId: $id, afterSeq: 0) { seq match { seats { player { stats { matchesWon } } } } } }',
        {
          id,
        },
      );
      await ws.until(() => ws.of('s').length >= events);
      expect(ws.of('s').every((m) => m.type === 'next' && !(m.payload as { errors?: unknown }).errors)).toBe(true);
      // One read of both seats' stats, however many events.
      expect(reads.mock.calls.length).toBe(1);
    } finally {
      reads.mockRestore();
      ws.terminate();
    }
  });

  it('delivers a commit made here from the commit itself: no read, and the same events a catch-up reads back', async () => {
    const [a, b] = [await app.player(), await app.player()];
    const { id, bySeat } = await longMatch(a, b);
    const prisma = app.server.app.get(PrismaService);
    // The feeds' two reads: the events after a seq, and the match. Watched on the very instance
    // the feeds call, so background statements (sweeps, token re-checks) cannot blur the count.
    const repo = app.server.app.get(MatchesRepository);
    const eventReads = jest.spyOn(repo, 'eventsAfter');
    const matchReads = jest.spyOn(repo, 'find');
    // Live watchers: a seat (sees its own draws) and an anonymous spectator (sees no drawn tile).
    const seat = new RawWs(app.url, { token: a.token });
    const spectator = new RawWs(app.url);
    try {
      await Promise.all([seat.ready(), spectator.ready()]);
      seat.subscribe('live', LIVE, { id });
      spectator.subscribe('live', LIVE, { id });
      await feedsStarted(app.server, { matchId: id }, 2); // live only: subscribed before the moves

      const first = (await prisma.match.findUniqueOrThrow({ where: { id } })).lastEventSeq;
      eventReads.mockClear();
      matchReads.mockClear();
      // On until a draw (a hand of 7 against 7 leaves a boneyard of 14: one comes within a few rounds).
      let commands = 0;
      while (commands < 40 || !(await prisma.move.count({ where: { matchId: id, type: 'DRAW' } }))) {
        await oneMove(bySeat, id);
        commands++;
      }
      const last = (await prisma.match.findUniqueOrThrow({ where: { id } })).lastEventSeq;
      await seat.until(() => eventsOf(seat, 'live').at(-1)?.seq === last);
      await spectator.until(() => eventsOf(spectator, 'live').at(-1)?.seq === last);
      // Every view came from the cache and the two live feeds read nothing back: each commit's
      // events came with the commit.
      expect(eventReads).not.toHaveBeenCalled();
      expect(matchReads).not.toHaveBeenCalled();

      for (const ws of [seat, spectator]) {
        ws.subscribe('replay', FROM_START, { id });
        await ws.until(() => eventsOf(ws, 'replay').at(-1)?.seq === last);
        const live = eventsOf(ws, 'live');
        expect(live.map((e) => e.seq)).toEqual(Array.from({ length: last - first }, (_, i) => first + 1 + i));
        expect(live).toEqual(eventsOf(ws, 'replay').filter((e) => e.seq > first));
      }
      expect(eventReads).toHaveBeenCalled(); // the catch-ups did read the table
      const drawn = eventsOf(seat, 'live').filter((e) => e.type === 'TILE_DRAWN');
      expect(drawn.length).toBeGreaterThan(0);
    } finally {
      eventReads.mockRestore();
      matchReads.mockRestore();
      seat.terminate();
      spectator.terminate();
    }
  });

  it("reads the table for a catch-up when the cached commit is not the newest (another instance's came later)", async () => {
    const [a, b] = [await app.player(), await app.player()];
    const { id, bySeat } = await longMatch(a, b);
    const cache = app.server.app.get(MatchCache);
    await oneMove(bySeat, id);
    const older = cache.get(id)!;
    expect(older.committedEvents?.length).toBeGreaterThan(0);
    await oneMove(bySeat, id);
    await oneMove(bySeat, id);
    const newest = cache.get(id)!.lastEventSeq;
    // What a race between instances can leave: this process caches its own commit after another
    // instance's later one was signalled (and cleared the cache).
    cache.forget(id);
    cache.set(older);
    const ws = new RawWs(app.url);
    try {
      await ws.ready();
      const from = older.committedEvents![0].seq - 1;
      ws.subscribe('c', `subscription($id: ID!, $after: Int!) { matchEvents(matchId: $id, afterSeq: $after) { ${EVENT_FIELDS} } }`, {
        id,
        after: from,
      });
      await ws.until(() => eventsOf(ws, 'c').at(-1)?.seq === newest);
      expect(eventsOf(ws, 'c').map((e) => e.seq)).toEqual(Array.from({ length: newest - from }, (_, i) => from + 1 + i));
    } finally {
      ws.terminate();
    }
  });

  it("refuses an afterSeq past the match's last event, live or over, instead of waiting for events that may never come; the last one itself is fine", async () => {
    const [a, b] = [await app.player(), await app.player()];
    const { id, bySeat } = await longMatch(a, b);
    await oneMove(bySeat, id);
    const cache = app.server.app.get(MatchCache);
    const stale = cache.get(id)!;
    await oneMove(bySeat, id);
    const last = cache.get(id)!.lastEventSeq;
    // A cached record older than the table (another instance's commit came later) is no reason to refuse.
    cache.forget(id);
    cache.set(stale);
    const ws = new RawWs(app.url);
    const AFTER = `subscription($id: ID!, $after: Int!) { matchEvents(matchId: $id, afterSeq: $after) { seq } }`;
    try {
      await ws.ready();
      ws.subscribe('last', AFTER, { id, after: last });
      ws.subscribe('past', AFTER, { id, after: last + 1 });
      await ws.until(() => ws.of('past').length > 0);
      expect(ws.of('past')).toEqual([
        {
          id: 'past',
          type: 'error',
          payload: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', field: 'afterSeq', lastSeq: last }) })],
        },
      ]);
      await a.request('mutation($id: ID!) { resignMatch(matchId: $id) { id } }', { id });
      // The subscription at the last event was live: it has the resignation's events, then completes.
      await ws.until(() => ws.of('last').some((m) => m.type === 'complete'));
      const firstLive = ws.of('last').find((m) => m.type === 'next')?.payload as { data: { matchEvents: { seq: number } } };
      expect(firstLive.data.matchEvents.seq).toBe(last + 1);
      const end = cache.get(id)?.lastEventSeq ?? last + 1;
      ws.subscribe('over', AFTER, { id, after: end + 5 });
      await ws.until(() => ws.of('over').length > 0);
      expect(ws.of('over')[0]).toMatchObject({ type: 'error', payload: [{ extensions: { code: 'BAD_USER_INPUT' } }] });
    } finally {
      ws.terminate();
    }
  });
});

describe('a commit whose signal never came', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp({ FEED_RECHECK_MS: '200', METRICS: 'true', METRICS_TOKEN: 'metrics-token-for-the-tests' })));
  afterAll(() => app.close());

  it('still reaches the live feeds of its match: they read it from the table at the next re-check', async () => {
    const [a, b] = [await app.player(), await app.player()];
    const { id, bySeat } = await longMatch(a, b);
    const prisma = app.server.app.get(PrismaService);
    const ws = new RawWs(app.url);
    try {
      await ws.ready();
      ws.subscribe('live', LIVE, { id });
      await feedsStarted(app.server, { matchId: id });
      const before = (await prisma.match.findUniqueOrThrow({ where: { id } })).lastEventSeq;
      // The commit's signal is lost (a NOTIFY that failed, or its instance died right after committing).
      const bus = app.server.app.get<EventBus>(EVENT_BUS);
      const publish = jest.spyOn(bus, 'publish').mockImplementationOnce(() => Promise.resolve());
      await oneMove(bySeat, id);
      expect(publish).toHaveBeenCalledTimes(1);
      publish.mockRestore();
      const after = (await prisma.match.findUniqueOrThrow({ where: { id } })).lastEventSeq;
      expect(after).toBeGreaterThan(before);
      await ws.until(() => ws.of('live').length >= after - before, 10_000);
      expect(eventsOf(ws, 'live').map((e) => e.seq)).toEqual(Array.from({ length: after - before }, (_, i) => before + 1 + i));
    } finally {
      ws.terminate();
    }
  });

  it('reads none of the turns a myTurns feed read as it began, at its re-checks', async () => {
    const [p, ...others] = [await app.player(), await app.player(), await app.player(), await app.player()];
    const prisma = app.server.app.get(PrismaService);
    const ids: string[] = [];
    for (const other of others) {
      const { id, bySeat } = await longMatch(p, other);
      const pSeat = [...bySeat].find(([, c]) => c === p)![0];
      for (let i = 0; i < 30 && (await prisma.match.findUniqueOrThrow({ where: { id } })).turn !== pSeat; i++) await oneMove(bySeat, id);
      ids.push(id);
    }
    const ws = new RawWs(app.url, { token: p.token });
    try {
      await ws.ready();
      ws.subscribe('turns', 'subscription { myTurns { id version } }');
      await ws.until(() => ws.of('turns').length >= 3);
      // Nothing cached: a turn handed to the feed again would cost a read of its match.
      for (const id of ids) app.server.app.get(MatchCache).forget(id);
      const before = prisma.statements;
      await new Promise((r) => setTimeout(r, 700)); // three re-checks or more
      expect(prisma.statements - before).toBe(0);
      expect(ws.of('turns')).toHaveLength(3);
    } finally {
      ws.terminate();
    }
  });

  it('still tells every player of a match that ended on myTurns, once, at the next re-check', async () => {
    const [a, b] = [await app.player(), await app.player()];
    const { id } = await longMatch(a, b);
    const prisma = app.server.app.get(PrismaService);
    const bus = app.server.app.get<EventBus>(EVENT_BUS);
    const [wa, wb] = [new RawWs(app.url, { token: a.token }), new RawWs(app.url, { token: b.token })];
    try {
      for (const ws of [wa, wb]) {
        await ws.ready();
        ws.subscribe('turns', 'subscription { myTurns { id version status } }');
      }
      // Started, and re-checked at least once: the turn that is someone's now was pushed to them alone.
      const pushed = () => wa.of('turns').length + wb.of('turns').length;
      await eventually(pushed, (n) => n >= 1, 'the turn pushed to its player');
      await new Promise((r) => setTimeout(r, 500));
      const before = pushed();
      expect(before).toBe(1);
      // The resignation's signal is lost (a NOTIFY that failed, or its instance died right after committing).
      const publish = jest.spyOn(bus, 'publish').mockImplementationOnce(() => Promise.resolve());
      await a.request('mutation($id: ID!) { resignMatch(matchId: $id) { id } }', { id });
      expect(publish).toHaveBeenCalledTimes(1);
      publish.mockRestore();
      const { version } = await prisma.match.findUniqueOrThrow({ where: { id } });
      const ends = (ws: RawWs) =>
        ws
          .of('turns')
          .map((m) => (m.payload as { data: { myTurns: { id: string; version: number; status: string } } }).data.myTurns)
          .filter((m) => m.status !== 'IN_PROGRESS');
      await wa.until(() => ends(wa).length >= 1, 10_000);
      await wb.until(() => ends(wb).length >= 1, 10_000);
      await new Promise((r) => setTimeout(r, 600)); // more re-checks: the end is not pushed again
      for (const ws of [wa, wb]) expect(ends(ws)).toEqual([{ id, version, status: 'FINISHED' }]);
    } finally {
      jest.restoreAllMocks();
      wa.terminate();
      wb.terminate();
    }
  });

  it("pushes nothing after the player's own draw, which keeps the turn, at its re-checks either", async () => {
    const [a, b] = [await app.player(), await app.player()];
    const { createMatch } = await a.request<{ createMatch: { id: string } }>(
      'mutation { createMatch(input: { seats: 2, rules: { targetScore: 10000, voluntaryDraw: true } }) { id } }',
    );
    const id = createMatch.id;
    await b.request('mutation($id: ID!) { joinMatch(matchId: $id) { id } }', { id });
    const prisma = app.server.app.get(PrismaService);
    const start = await prisma.match.findUniqueOrThrow({ where: { id } });
    const bySeat = new Map([
      [0, a],
      [1, b],
    ]);
    const mover = bySeat.get(start.turn!)!;
    const ws = new RawWs(app.url, { token: mover.token });
    const pushed = () => ws.of('turns').map((m) => (m.payload as { data: { myTurns: { version: number } } }).data.myTurns.version);
    try {
      await ws.ready();
      ws.subscribe('turns', 'subscription { myTurns { id version } }');
      await ws.until(() => ws.of('turns').length >= 1);
      expect(pushed()).toEqual([start.version]);
      const drawn = await mover.request<{ drawTile: { version: number; turn: number } }>(
        'mutation($input: TurnInput!) { drawTile(input: $input) { version turn } }',
        { input: { matchId: id, expectedVersion: start.version } },
      );
      expect(drawn.drawTile).toEqual({ version: start.version + 1, turn: start.turn });
      await new Promise((r) => setTimeout(r, 700)); // three re-checks or more: the table shows the turn at a newer version
      expect(pushed()).toEqual([start.version]);
      // The next turn of theirs is pushed: the feed was listening all along. (The other player
      // may have to draw before a play hands the turn back: the deal decides.)
      await oneMove(bySeat, id);
      let next = await prisma.match.findUniqueOrThrow({ where: { id } });
      expect(next.turn).not.toBe(start.turn);
      for (let i = 0; i < 30 && next.turn !== start.turn; i++) {
        await oneMove(bySeat, id);
        next = await prisma.match.findUniqueOrThrow({ where: { id } });
      }
      expect(next.turn).toBe(start.turn);
      await ws.until(() => ws.of('turns').length >= 2);
      expect(pushed()).toEqual([start.version, next.version]);
    } finally {
      ws.terminate();
    }
  });

  it('still tells the player whose turn it made on myTurns, once, at the next re-check', async () => {
    const [a, b] = [await app.player(), await app.player()];
    const { id, bySeat } = await longMatch(a, b);
    const prisma = app.server.app.get(PrismaService);
    const turnNow = async () => (await prisma.match.findUniqueOrThrow({ where: { id } })).turn!;
    const waiting = bySeat.get(1 - (await turnNow()))!;
    const ws = new RawWs(app.url, { token: waiting.token });
    const bus = app.server.app.get<EventBus>(EVENT_BUS);
    try {
      await ws.ready();
      ws.subscribe('turns', 'subscription { myTurns { id version turn mySeat } }');
      await feedsStarted(app.server, { playerId: waiting.id });
      await new Promise((r) => setTimeout(r, 500)); // re-checked at least once: nothing of theirs yet
      expect(ws.of('turns')).toEqual([]);
      // Every signal is lost until the turn is theirs (a draw keeps it with the mover).
      const publish = jest.spyOn(bus, 'publish').mockImplementation(() => Promise.resolve());
      const waitingSeat = [...bySeat].find(([, c]) => c === waiting)![0];
      for (let i = 0; i < 30 && (await turnNow()) !== waitingSeat; i++) await oneMove(bySeat, id);
      expect(await turnNow()).toBe(waitingSeat);
      expect(publish).toHaveBeenCalled();
      publish.mockRestore();
      const { version } = await prisma.match.findUniqueOrThrow({ where: { id } });
      await ws.until(() => ws.of('turns').length >= 1, 10_000);
      await new Promise((r) => setTimeout(r, 600)); // more re-checks: the turn is not pushed again
      const pushed = ws
        .of('turns')
        .map((m) => (m.payload as { data: { myTurns: { id: string; version: number; turn: number; mySeat: number } } }).data.myTurns);
      expect(pushed).toEqual([{ id, version, turn: waitingSeat, mySeat: waitingSeat }]);
    } finally {
      jest.restoreAllMocks();
      ws.terminate();
    }
  });
});
