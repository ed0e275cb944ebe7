import { jest } from '@jest/globals';
import { MatchCache } from '../src/matches/match-cache.js';
import { MatchesRepository } from '../src/matches/matches.repository.js';
import { EVENT_BUS, type InMemoryEventBus } from '../src/realtime/event-bus.js';
import { FeedRegistry } from '../src/subscriptions/feed-registry.js';
import { startTestApp, type TestApp } from './support/app.js';
import { viewOf } from './support/driver.js';
import { eventually } from './support/eventually.js';
import { feedsStarted } from './support/feeds.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';
import type { GqlClient } from './support/gql.js';
import { RawWs } from './support/raw-ws.js';
import { Subscriber } from './support/ws.js';

const S_TURNS = `subscription { myTurns { id status version turn mySeat legalMoves { tile { high low } end } canDraw winner { index } } }`;
const PLAY = `mutation($i: PlayTileInput!) { playTile(input: $i) { id status version turn mySeat legalMoves { tile { high low } end } canDraw winner { index } } }`;
const DRAW = `mutation($i: TurnInput!) { drawTile(input: $i) { id status version turn mySeat legalMoves { tile { high low } end } canDraw winner { index } } }`;
const RESIGN = 'mutation($id: ID!) { resignMatch(matchId: $id) { status } }';

type Pushed = Pick<MatchT, 'id' | 'status' | 'version' | 'turn' | 'mySeat' | 'legalMoves' | 'canDraw'> & { winner: { index: number } | null };
const pick = (d: Record<string, unknown>) => d.myTurns as Pushed;

/**
 * myTurns as a client that lives on it alone sees it: the turns it must act on, including those
 * that began before it subscribed, and the end of each of its matches, whoever ended it.
 */
describe('myTurns: a feed a bot can live on', () => {
  let app: TestApp;
  beforeAll(async () => {
    // No periodic re-check of the table: a lost signal stays lost until the test resyncs (the
    // re-check's own tests are in catch-up.e2e-spec.ts).
    app = await startTestApp({ FEED_RECHECK_MS: '0' });
  });
  afterAll(async () => {
    await app.close();
  });

  async function twoPlayer(): Promise<{ id: string; bySeat: Map<number, GqlClient> }> {
    const a = await app.player('a');
    const b = await app.player('b');
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    await b.request(M_JOIN, { id: createMatch.id });
    return {
      id: createMatch.id,
      bySeat: new Map([
        [0, a],
        [1, b],
      ]),
    };
  }

  it('subscribed after the turn began, it pushes that match first', async () => {
    const { id, bySeat } = await twoPlayer();
    const turn = (await viewOf(bySeat.get(0)!, id)).turn!;
    const mover = bySeat.get(turn)!;
    const waiter = bySeat.get(1 - turn)!;
    const moverFeed = new Subscriber<Pushed>(app.url, mover.token).subscribe(S_TURNS, {}, pick);
    const waiterFeed = new Subscriber<Pushed>(app.url, waiter.token).subscribe(S_TURNS, {}, pick);
    await moverFeed.until((r) => r.length >= 1);
    const [first] = moverFeed.received;
    expect(first).toMatchObject({ id, status: 'IN_PROGRESS', turn, mySeat: turn });
    expect(first.legalMoves.length).toBeGreaterThan(0);
    // The mover plays from that push; the turn begins for the other player, who is told once.
    await mover.request(PLAY, { i: { matchId: id, tile: first.legalMoves[0].tile, end: first.legalMoves[0].end, expectedVersion: first.version } });
    await waiterFeed.until((r) => r.length >= 1);
    expect(waiterFeed.received[0]).toMatchObject({ id, status: 'IN_PROGRESS', turn: 1 - turn, mySeat: 1 - turn });
    // Nothing was pushed twice: one push per version.
    for (const feed of [moverFeed, waiterFeed]) {
      const versions = feed.received.map((m) => `${m.id}@${m.version}`);
      expect(new Set(versions).size).toBe(versions.length);
    }
    await Promise.all([moverFeed.close(), waiterFeed.close()]);
  });

  it('after a resync (signals may have been missed) pushes the turns that began meanwhile', async () => {
    const { id, bySeat } = await twoPlayer();
    const turn = (await viewOf(bySeat.get(0)!, id)).turn!;
    const mover = bySeat.get(turn)!;
    const waiter = bySeat.get(1 - turn)!;
    const known = jest.spyOn(app.server.app.get(FeedRegistry), 'turnsKnown');
    const feed = new Subscriber<Pushed>(app.url, waiter.token).subscribe(S_TURNS, {}, pick);
    try {
      // Started: watching, and its catch-up has read the waiter's turns (none): what follows is live.
      await eventually(() => known.mock.calls.some(([player]) => player === waiter.id), Boolean, "the feed's catch-up read");
      // The move that hands the waiter the turn is never signalled, as a dropped LISTEN connection loses it.
      const bus = app.server.app.get<InMemoryEventBus>(EVENT_BUS);
      const lost = jest.spyOn(bus, 'publish').mockImplementationOnce(async () => {});
      const me = await viewOf(mover, id);
      const played = await mover.request<{ playTile: Pushed }>(PLAY, {
        i: { matchId: id, tile: me.legalMoves[0].tile, end: me.legalMoves[0].end, expectedVersion: me.version },
      });
      expect(lost).toHaveBeenCalled();
      lost.mockRestore();
      await new Promise((r) => setTimeout(r, 200));
      expect(feed.received).toEqual([]);
      bus.resync();
      await feed.until((r) => r.length >= 1);
      expect(feed.received).toEqual([expect.objectContaining({ id, version: played.playTile.version, turn: 1 - turn, mySeat: 1 - turn })]);
    } finally {
      known.mockRestore();
      await feed.close();
    }
  });

  it('catches up on more turns than its queue holds, a page at a time, without falling behind, and stops once the reader is gone', async () => {
    const small = await startTestApp({ WS_SUBSCRIPTION_QUEUE: '10' });
    try {
      const p = await small.player('many-turns');
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) ids.push((await p.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, bots: 1 } })).createMatch.id);
      // The bot moves first where it leads: wait until every match is the player's to move.
      for (const id of ids) {
        const deadline = Date.now() + 10_000;
        while ((await viewOf(p, id)).turn !== (await viewOf(p, id)).mySeat && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      }
      const feed = new Subscriber<Pushed>(small.url, p.token).subscribe(S_TURNS, {}, pick);
      await feed.until((r) => new Set(r.map((m) => m.id)).size >= ids.length, 10_000);
      expect(new Set(feed.received.map((m) => m.id))).toEqual(new Set(ids));
      expect(feed.closedWith).toBeNull();
      await feed.close();

      // A reader that goes away at once: the catch-up reads at most the page in flight, not every match.
      const cache = small.server.app.get(MatchCache);
      for (const id of ids) cache.forget(id);
      const repo = small.server.app.get(MatchesRepository);
      const reads = [jest.spyOn(repo, 'find'), jest.spyOn(repo, 'findMany')];
      try {
        const gone = new RawWs(small.url, { token: p.token });
        await gone.ready();
        gone.subscribe('t', S_TURNS);
        gone.send({ id: 't', type: 'complete' });
        await new Promise((r) => setTimeout(r, 500));
        gone.terminate();
        const [single, many] = reads.map((r) => r.mock.calls);
        const asked = single.length + many.reduce((n, [page]) => n + (page as string[]).length, 0);
        expect(asked).toBeLessThanOrEqual(5); // one page: half the queue of 10
      } finally {
        reads.forEach((r) => r.mockRestore());
      }
    } finally {
      await small.close();
    }
  });

  it('pushes the match once more when the opponent resigns', async () => {
    const { id, bySeat } = await twoPlayer();
    const turn = (await viewOf(bySeat.get(0)!, id)).turn!;
    // The waiting player is not to move: only the end can reach it.
    const waiter = bySeat.get(1 - turn)!;
    const feed = new Subscriber<Pushed>(app.url, waiter.token).subscribe(S_TURNS, {}, pick);
    await feedsStarted(app.server, { playerId: waiter.id });
    await bySeat.get(turn)!.request(RESIGN, { id });
    await feed.until((r) => r.some((m) => m.status === 'FINISHED'));
    expect(feed.received).toEqual([expect.objectContaining({ id, status: 'FINISHED', turn: null, mySeat: 1 - turn, winner: { index: 1 - turn } })]);
    await feed.close();
  });

  it("pushes the finished match again when its rematch is offered, with the rematch's link", async () => {
    const { id, bySeat } = await twoPlayer();
    const turn = (await viewOf(bySeat.get(0)!, id)).turn!;
    const [resigner, other] = [bySeat.get(turn)!, bySeat.get(1 - turn)!];
    const S_ENDS = 'subscription { myTurns { id status version rematch { id } } }';
    type Ended = { id: string; status: string; version: number; rematch: { id: string } | null };
    const feed = new Subscriber<Ended>(app.url, other.token).subscribe(S_ENDS, {}, (d) => d.myTurns as Ended);
    await feedsStarted(app.server, { playerId: other.id });
    await resigner.request(RESIGN, { id });
    await feed.until((r) => r.length >= 1);
    expect(feed.received).toEqual([expect.objectContaining({ id, status: 'FINISHED', rematch: null })]);
    // The resigner asks for a rematch: the other player, not connected to the finished match's
    // (completed) matchEvents, hears of it on myTurns, at the version REMATCH_OFFERED made.
    const { rematch } = await resigner.request<{ rematch: { id: string } }>('mutation($id: ID!) { rematch(matchId: $id) { id } }', { id });
    await feed.until((r) => r.length >= 2);
    expect(feed.received[1]).toMatchObject({ id, status: 'FINISHED', rematch: { id: rematch.id } });
    expect(feed.received[1].version).toBeGreaterThan(feed.received[0].version);
    await new Promise((r) => setTimeout(r, 200));
    expect(feed.received).toHaveLength(2); // once per version: no further push
    await feed.close();
  });

  it('pushes a match once when it is ABANDONED, to the player whose leaving abandoned it', async () => {
    const a = await app.player('la');
    const feed = new Subscriber<Pushed>(app.url, a.token).subscribe(S_TURNS, {}, pick);
    await feedsStarted(app.server, { playerId: a.id });
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    await a.request('mutation($id: ID!) { leaveMatch(matchId: $id) { status } }', { id: createMatch.id });
    await feed.until((r) => r.length >= 1);
    expect(feed.received).toEqual([expect.objectContaining({ id: createMatch.id, status: 'ABANDONED', mySeat: null })]);
    await feed.close();
  });

  it('a bot living on myTurns alone plays a match against a server bot to its end, and hears when the bot wins', async () => {
    // Short matches (target 10) until the server's bot wins one: the human side cannot steer that.
    let botWon = false;
    for (let attempt = 0; attempt < 30 && !botWon; attempt++) {
      const human = await app.player(`h${attempt}`);
      const feed = new Subscriber<Pushed>(app.url, human.token).subscribe(S_TURNS, {}, pick);
      await feedsStarted(app.server, { playerId: human.id });
      const { createMatch } = await human.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, bots: 1, rules: { targetScore: 10 } } });
      const id = createMatch.id;
      let handled = 0;
      let known = 0; // the newest version acted on: a push may be older than an answer already in hand
      let ended: Pushed | null = null;
      while (!ended) {
        await feed
          .until((r) => r.length > handled)
          .catch((e: unknown) => {
            throw new Error(`${String(e)} ${JSON.stringify(feed.received)} known ${known}`);
          });
        let m: Pushed = feed.received[handled++];
        expect(m.id).toBe(id);
        if (m.status !== 'IN_PROGRESS') {
          ended = m; // at the version of the human's own last answer when its play ended the match
          break;
        }
        if (m.version <= known) continue;
        // A draw keeps the turn: act from each answer until the turn passes on (no push follows a own draw).
        while (m.status === 'IN_PROGRESS' && m.turn === m.mySeat) {
          if (m.legalMoves.length > 0) {
            m = (
              await human.request<{ playTile: Pushed }>(PLAY, {
                i: { matchId: id, tile: m.legalMoves[0].tile, end: m.legalMoves[0].end, expectedVersion: m.version },
              })
            ).playTile;
          } else m = (await human.request<{ drawTile: Pushed }>(DRAW, { i: { matchId: id, expectedVersion: m.version } })).drawTile;
          known = m.version;
        }
        if (m.status === 'FINISHED') {
          // The human's own play ended it: the feed says so too, once.
          await feed.until((r) => r.some((x) => x.status === 'FINISHED'));
        }
      }
      expect(ended.status).toBe('FINISHED');
      expect(feed.received.filter((x) => x.status === 'FINISHED')).toHaveLength(1);
      botWon = ended.winner!.index === 1;
      await feed.close();
    }
    expect(botWon).toBe(true);
  });
});
