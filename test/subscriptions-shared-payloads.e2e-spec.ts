import { PrismaService } from '../src/database/prisma.service.js';
import { tileKey, type MatchState } from '../src/domain/index.js';
import { startTestApp, type TestApp } from './support/app.js';
import { lcg, viewOf } from './support/driver.js';
import { feedsStarted } from './support/feeds.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';
import type { GqlClient } from './support/gql.js';
import { RawWs } from './support/raw-ws.js';
import { Subscriber } from './support/ws.js';

/*
 * A match event is built once per view (each seat, spectators) and executed once per selection,
 * then shared by every subscriber of that view and selection. These watch one match through
 * many sockets at once, mixing views and documents, and check that sharing never crosses a view
 * or a selection.
 */

/** Two different selections of the same feed. */
const DOC_A = `subscription($id: ID!, $after: Int) {
  matchEvents(matchId: $id, afterSeq: $after) { seq type move { seat type tile { high low } } match { version mySeat myHand { high low } } }
}`;
const DOC_B = `subscription($id: ID!, $after: Int) {
  matchEvents(matchId: $id, afterSeq: $after) {
    seq kind move { seq seat type tile { low high } end }
    match { mySeat turn myHand { low high } seats { index handCount } currentRound { number moves { seat type tile { high low } } } }
  }
}`;

type Tile = { high: number; low: number };
type Ev = {
  seq: number;
  move: { seat: number; type: string; tile: Tile | null } | null;
  match: { mySeat: number | null; myHand: Tile[] | null; currentRound?: { moves: { seat: number; type: string; tile: Tile | null }[] } | null };
} & Record<string, unknown>;

const pick = (d: Record<string, unknown>) => d.matchEvents as Ev;

/** The field names of an object, sorted: the selection a subscriber got. */
const keys = (o: object | null | undefined) => Object.keys(o ?? {}).sort();

describe('shared subscription payloads', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('each view and each document gets its own payload: no seat sees another seat’s hand or draws', async () => {
    const players = await Promise.all([0, 1, 2].map((i) => app.player(`shared${i}`)));
    const watcher = await app.player('shared-watcher');
    // Hands of 5 leave a boneyard, so the round has draws to hide.
    const { createMatch } = await players[0].request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 3, rules: { handSize: 5 } } });
    const matchId = createMatch.id;
    const bySeat = new Map<number, GqlClient>([[0, players[0]]]);
    for (const p of players.slice(1)) bySeat.set((await p.request<{ joinMatch: MatchT }>(M_JOIN, { id: matchId })).joinMatch.mySeat!, p);

    // Per view: two sockets with document A (they share), one with document B. Views: each seat,
    // a registered non-player, an anonymous spectator.
    const views: [string, number | null, string | undefined][] = [
      ...[...bySeat].map(([seat, c]) => [`seat${seat}`, seat, c.token] as [string, number | null, string | undefined]),
      ['watcher', null, watcher.token],
      ['anonymous', null, undefined],
    ];
    const subs: { view: string; seat: number | null; doc: 'A' | 'B'; sub: Subscriber<Ev> }[] = [];
    for (const [view, seat, token] of views)
      for (const doc of ['A', 'A', 'B'] as const)
        subs.push({
          view,
          seat,
          doc,
          sub: new Subscriber<Ev>(app.url, token).subscribe(doc === 'A' ? DOC_A : DOC_B, { id: matchId, after: 0 }, pick),
        });

    const prisma = app.server.app.get(PrismaService);
    const rnd = lcg(17);
    // 40 commands, and on until a draw (the hidden tiles under test): a deal may give none in 40.
    const drawn = () => prisma.move.count({ where: { matchId, type: 'DRAW' } });
    for (let i = 0; i < 40 || (i < 400 && (await drawn()) === 0); i++) {
      const pub = await viewOf(players[0], matchId);
      if (pub.status !== 'IN_PROGRESS') break;
      const c = bySeat.get(pub.turn!)!;
      const me = await viewOf(c, matchId);
      if (me.legalMoves.length > 0) {
        const mv = me.legalMoves[Math.floor(rnd() * me.legalMoves.length)];
        await c.request('mutation($i: PlayTileInput!) { playTile(input: $i) { version } }', { i: { matchId, tile: mv.tile, end: mv.end } });
      } else await c.request('mutation($i: TurnInput!) { drawTile(input: $i) { version } }', { i: { matchId } });
    }
    const stored = await prisma.match.findUniqueOrThrow({ where: { id: matchId } });
    await Promise.all(subs.map((s) => s.sub.until((r) => r.at(-1)?.seq === stored.lastEventSeq)));

    let hiddenDraws = 0;
    for (const { view, seat, doc, sub } of subs) {
      expect(sub.errors).toEqual([]);
      expect(sub.received.map((e) => e.seq)).toEqual(Array.from({ length: stored.lastEventSeq }, (_, k) => k + 1));
      for (const e of sub.received) {
        // The view: their own seat, their own hand (or none), never another seat's draw.
        expect({ view, mySeat: e.match.mySeat }).toEqual({ view, mySeat: seat });
        if (seat === null) expect(e.match.myHand).toBeNull();
        if (e.move?.type === 'DRAW' && e.move.seat !== seat) {
          expect({ view, seq: e.seq, tile: e.move.tile }).toEqual({ view, seq: e.seq, tile: null });
          hiddenDraws++;
        }
        for (const m of e.match.currentRound?.moves ?? []) if (m.type === 'DRAW' && m.seat !== seat) expect(m.tile).toBeNull();
        // The selection: exactly the fields its document asked for.
        if (doc === 'A') {
          expect(keys(e)).toEqual(['match', 'move', 'seq', 'type']);
          expect(keys(e.match)).toEqual(['myHand', 'mySeat', 'version']);
        } else {
          expect(keys(e)).toEqual(['kind', 'match', 'move', 'seq']);
          expect(keys(e.match)).toEqual(['currentRound', 'myHand', 'mySeat', 'seats', 'turn']);
          if (e.move) expect(keys(e.move)).toEqual(['end', 'seat', 'seq', 'tile', 'type']);
        }
      }
    }
    expect(hiddenDraws).toBeGreaterThan(0);

    // Same view and document: the same events (each event's match is the match as of its batch's
    // read, which two subscribers may make at different moments: compared at the last event only).
    for (const [view] of views) {
      const [a1, a2] = subs.filter((s) => s.view === view && s.doc === 'A');
      const events = (s: typeof a1) => s.sub.received.map(({ seq, type, move }) => ({ seq, type, move }));
      expect(events(a2)).toEqual(events(a1));
      expect(a2.sub.received.at(-1)).toEqual(a1.sub.received.at(-1));
    }
    // Seats' hands as stored, and never overlapping.
    const state = stored.state as unknown as MatchState;
    if (state.status === 'IN_PROGRESS' && state.round.status === 'IN_PROGRESS') {
      for (const [seat] of bySeat) {
        const last = subs.find((s) => s.seat === seat && s.doc === 'B')!.sub.received.at(-1)!;
        expect(last.match.myHand!.map(tileKey).sort()).toEqual(state.round.hands[seat].map(tileKey).sort());
      }
    }
    const lastHands = [...bySeat.keys()].map(
      (seat) =>
        new Set(
          subs
            .find((s) => s.seat === seat)!
            .sub.received.at(-1)!
            .match.myHand!.map(tileKey),
        ),
    );
    for (const [i, a] of lastHands.entries()) for (const b of lastHands.slice(i + 1)) expect([...a].filter((t) => b.has(t))).toEqual([]);

    await Promise.all(subs.map((s) => s.sub.close()));
  });

  it('a live event written straight to the socket is byte for byte the message graphql-ws would write, and the event a catch-up reads', async () => {
    const [a, b] = await Promise.all(['direct-a', 'direct-b'].map((n) => app.player(n)));
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    const matchId = createMatch.id;
    await b.request(M_JOIN, { id: matchId });
    // Live only: once subscribed, its reader waits, so the next event goes out directly.
    const live = new RawWs(app.url);
    await live.ready();
    live.subscribe('s', DOC_B, { id: matchId });
    await feedsStarted(app.server, { matchId });
    const fromA = await viewOf(a, matchId);
    const mover = fromA.mySeat === fromA.turn ? a : b;
    const me = await viewOf(mover, matchId);
    if (me.legalMoves.length > 0)
      await mover.request('mutation($i: PlayTileInput!) { playTile(input: $i) { version } }', {
        i: { matchId, tile: me.legalMoves[0].tile, end: me.legalMoves[0].end },
      });
    else await mover.request('mutation($i: TurnInput!) { drawTile(input: $i) { version } }', { i: { matchId } });
    await live.until(() => live.of('s').length > 0);
    const seq = (live.of('s')[0].payload as { data: { matchEvents: { seq: number } } }).data.matchEvents.seq;
    // graphql-ws writes JSON.stringify({ id, type, payload }): the same bytes, key order included.
    const written = live.raw.find((m) => m.includes('"type":"next"'))!;
    expect(written).toBe(JSON.stringify({ id: 's', type: 'next', payload: (JSON.parse(written) as { payload: unknown }).payload }));
    // The same event read back from the table (a catch-up, separately executed): the same message.
    const caughtUp = new RawWs(app.url);
    await caughtUp.ready();
    caughtUp.subscribe('s', DOC_B, { id: matchId, after: seq - 1 });
    await caughtUp.until(() => caughtUp.of('s').length > 0);
    expect(caughtUp.raw.find((m) => m.includes('"type":"next"'))).toBe(written);
    live.terminate();
    caughtUp.terminate();
  });
  it("a spectator's payload resolves the rematch as a spectator's: a player of the rematch watching the old match shares no hand, nor any caller-only answer", async () => {
    const [a, b, x] = [await app.player('ra'), await app.player('rb'), await app.player('rx')];
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    const old = createMatch.id;
    await b.request(M_JOIN, { id: old });
    await a.request('mutation($id: ID!) { resignMatch(matchId: $id) { status } }', { id: old });
    const { rematch } = await a.request<{ rematch: { id: string } }>('mutation($id: ID!) { rematch(matchId: $id) { id } }', { id: old });
    // X sat in neither seat of the old match, and takes the rematch's free seat: it starts.
    const joined = await x.request<{ joinMatch: MatchT }>(M_JOIN, { id: rematch.id });
    expect(joined.joinMatch.status).toBe('IN_PROGRESS');
    const doc =
      'subscription($id: ID!) { matchEvents(matchId: $id, afterSeq: 0) { seq match { mySeat rematch { id mySeat myHand { high low } seats { player { id toMoveCount } } } } } }';
    type RematchEv = {
      seq: number;
      match: {
        mySeat: number | null;
        rematch: {
          id: string;
          mySeat: number | null;
          myHand: Tile[] | null;
          seats: { player: { id: string; toMoveCount: number | null } | null }[];
        } | null;
      };
    };
    const last = (await viewOf(a, old)).version;
    // X watches first (its view of the old match is a spectator's), then an anonymous socket, same text.
    const byX = new Subscriber<RematchEv>(app.url, x.token).subscribe(doc, { id: old }, (d) => d.matchEvents as RematchEv);
    const anon = new Subscriber<RematchEv>(app.url).subscribe(doc, { id: old }, (d) => d.matchEvents as RematchEv);
    try {
      for (const feed of [byX, anon]) await feed.until((r) => r.some((e) => e.match.rematch?.id === rematch.id));
      for (const feed of [byX, anon])
        for (const e of feed.received)
          expect({
            seq: e.seq,
            mySeat: e.match.mySeat,
            rematchHand: e.match.rematch?.myHand ?? null,
            // Player.toMoveCount answers only its own caller: through a spectators' payload, nobody.
            toMoveCounts: (e.match.rematch?.seats ?? []).map((s) => s.player?.toMoveCount ?? null),
          }).toEqual({
            seq: e.seq,
            mySeat: null,
            rematchHand: null,
            toMoveCounts: (e.match.rematch?.seats ?? []).map(() => null),
          });
      // The rematch's seats were resolved, X's among them (so the field had a caller to leak).
      expect(byX.received.at(-1)!.match.rematch!.seats.map((s) => s.player?.id)).toContain(x.id);
      // X sees its own hand where it sits: in the rematch itself.
      expect((await viewOf(x, rematch.id)).myHand!.length).toBeGreaterThan(0);
      expect(last).toBeGreaterThan(0);
    } finally {
      await Promise.all([byX.close(), anon.close()]);
    }
  });
});
