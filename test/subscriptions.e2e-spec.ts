import { startServer, type RunningServer } from '../src/bootstrap.js';
import { loadConfig } from '../src/config/config.js';
import { PrismaService } from '../src/database/prisma.service.js';
import { startTestApp, UNLIMITED, type TestApp } from './support/app.js';
import { driveMatch, lcg, viewOf } from './support/driver.js';
import { eventually } from './support/eventually.js';
import { feedsStarted } from './support/feeds.js';
import { M_CREATE, M_JOIN, M_PLAY, type MatchT } from './support/fragments.js';
import { GqlClient } from './support/gql.js';
import { Subscriber } from './support/ws.js';

const S_EVENTS = `subscription($id: ID!, $after: Int) {
  matchEvents(matchId: $id, afterSeq: $after) {
    seq type
    move { seq round seat type tile { high low } end points count }
    match { version mySeat myHand { high low } seats { handCount } currentRound { number moves { seat type tile { high low } } } }
  }
}`;
const S_TURNS = `subscription { myTurns { id turn mySeat legalMoves { tile { high low } end } canDraw } }`;

interface Ev {
  seq: number;
  type: string;
  move: { seq: number; seat: number; type: string; tile: { high: number; low: number } | null } | null;
  match: {
    version: number;
    mySeat: number | null;
    myHand: { high: number; low: number }[] | null;
    currentRound: { number: number; moves: { seat: number; type: string; tile: unknown }[] } | null;
  };
}
const pickEvent = (d: Record<string, unknown>) => d.matchEvents as Ev;

async function lastEventSeqOf(app: TestApp, matchId: string): Promise<number> {
  return (await app.server.app.get(PrismaService).match.findUniqueOrThrow({ where: { id: matchId } })).lastEventSeq;
}

/** One move by whoever is to move, from that seat's own legal moves. */
async function step(bySeat: Map<number, GqlClient>, matchId: string, rnd: () => number): Promise<MatchT> {
  const pub = await viewOf(bySeat.get(0)!, matchId);
  if (pub.status !== 'IN_PROGRESS') return pub;
  const c = bySeat.get(pub.turn!)!;
  const me = await viewOf(c, matchId);
  if (me.legalMoves.length > 0) {
    const mv = me.legalMoves[Math.floor(rnd() * me.legalMoves.length)];
    await c.request('mutation($i: PlayTileInput!) { playTile(input: $i) { version } }', { i: { matchId, tile: mv.tile, end: mv.end } });
  } else {
    await c.request('mutation($i: TurnInput!) { drawTile(input: $i) { version } }', { i: { matchId } });
  }
  return viewOf(bySeat.get(0)!, matchId);
}

async function fourPlayerMatch(app: TestApp, rules: Record<string, unknown> = {}) {
  const players = await Promise.all([0, 1, 2, 3].map((i) => app.player(`s${i}`)));
  const { createMatch } = await players[0].request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 4, partnerships: true, rules } });
  const bySeat = new Map<number, GqlClient>([[0, players[0]]]);
  for (const p of players.slice(1)) {
    const { joinMatch } = await p.request<{ joinMatch: MatchT }>(M_JOIN, { id: createMatch.id });
    bySeat.set(joinMatch.mySeat!, p);
  }
  return { matchId: createMatch.id, bySeat };
}

describe('subscriptions over graphql-ws', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('delivers every event of a round, in order, redacted per subscriber; a reconnect catches up exactly', async () => {
    // Hands of 5 leave a boneyard of 8, so the round has draws to redact.
    const { matchId, bySeat } = await fourPlayerMatch(app, { handSize: 5 });
    const spectatorPlayer = await app.player('watcher');
    const subs = new Map<string, Subscriber<Ev>>();
    for (const [seat, c] of bySeat)
      subs.set(`seat${seat}`, new Subscriber<Ev>(app.url, c.token).subscribe(S_EVENTS, { id: matchId, after: 0 }, pickEvent));
    subs.set('spectator', new Subscriber<Ev>(app.url, spectatorPlayer.token).subscribe(S_EVENTS, { id: matchId, after: 0 }, pickEvent));
    subs.set('anonymous', new Subscriber<Ev>(app.url).subscribe(S_EVENTS, { id: matchId, after: 0 }, pickEvent));
    // A client that will drop out mid-round and come back.
    const flaky = new Subscriber<Ev>(app.url, bySeat.get(1)!.token).subscribe(S_EVENTS, { id: matchId, after: 0 }, pickEvent);
    await Promise.all([...subs.values(), flaky].map((s) => s.until((r) => r.some((e) => e.type === 'ROUND_STARTED'))));

    const rnd = lcg(11);
    let view = await viewOf(bySeat.get(0)!, matchId);
    let movesPlayed = 0;
    let reconnect: Subscriber<Ev> | null = null;
    let lastSeenByFlaky = 0;
    // At least one whole round, and on until someone has drawn (the deal is random: a round may have no draw).
    const prisma = app.server.app.get(PrismaService);
    const drew = async () => (await prisma.move.count({ where: { matchId, type: 'DRAW' } })) > 0;
    while (view.status === 'IN_PROGRESS' && ((view.currentRound?.number ?? 1) === 1 || !(await drew())) && movesPlayed < 1000) {
      view = await step(bySeat, matchId, rnd);
      movesPlayed++;
      if (movesPlayed === 4) {
        await flaky.until((r) => r.length > 0 && r.at(-1)!.seq >= 4);
        lastSeenByFlaky = flaky.received.at(-1)!.seq;
        await flaky.close();
      }
      if (movesPlayed === 9)
        reconnect = new Subscriber<Ev>(app.url, bySeat.get(1)!.token).subscribe(S_EVENTS, { id: matchId, after: lastSeenByFlaky }, pickEvent);
    }
    expect(reconnect).not.toBeNull();
    const lastEventSeq = await lastEventSeqOf(app, matchId);
    await Promise.all([...subs.values(), reconnect!].map((s) => s.until((r) => r.length > 0 && r.at(-1)!.seq === lastEventSeq)));

    const reference = subs.get('seat0')!.received;
    expect(reference.map((e) => e.seq)).toEqual(Array.from({ length: lastEventSeq }, (_, i) => i + 1));
    expect(reference.some((e) => e.type === 'TILE_DRAWN')).toBe(true);
    expect(reference.some((e) => e.type === 'ROUND_ENDED')).toBe(true);
    for (const [who, sub] of subs) {
      const mySeat = who.startsWith('seat') ? Number(who.slice(4)) : null;
      expect(sub.errors).toEqual([]);
      expect(sub.received.map((e) => [e.seq, e.type])).toEqual(reference.map((e) => [e.seq, e.type]));
      for (const e of sub.received) {
        expect(e.match.mySeat).toBe(mySeat);
        if (mySeat === null) expect(e.match.myHand).toBeNull();
        if (!e.move) continue;
        // Tile by tile: a draw shows its tile to the drawer only; plays always show theirs.
        const ref = reference.find((r) => r.seq === e.seq)!.move!;
        if (e.move.type === 'DRAW') expect(e.move.tile === null).toBe(e.move.seat !== mySeat);
        else if (e.move.type === 'PLAY') expect(e.move.tile).toEqual(ref.tile);
        else expect(e.move.tile).toBeNull();
        // The embedded match view redacts others' live draws too.
        for (const m of e.match.currentRound?.moves ?? [])
          if (m.type === 'DRAW' && m.seat !== mySeat && e.type !== 'ROUND_ENDED') expect(m.tile).toBeNull();
      }
    }
    // The reconnecting client: exactly the events after its last seq, with no gap or repeat.
    expect(reconnect!.received.map((e) => e.seq)).toEqual(Array.from({ length: lastEventSeq - lastSeenByFlaky }, (_, i) => lastSeenByFlaky + 1 + i));
    expect(flaky.received.map((e) => e.seq)).toEqual(Array.from({ length: lastSeenByFlaky }, (_, i) => i + 1));
    await Promise.all([...subs.values(), reconnect!].map((s) => s.close()));
  });

  it('pushes myTurns when it becomes the caller’s turn', async () => {
    const a = await app.player('ta');
    const b = await app.player('tb');
    const turnsA = new Subscriber<{ id: string; mySeat: number; turn: number }>(app.url, a.token).subscribe(S_TURNS, {}, (d) => d.myTurns as never);
    const turnsB = new Subscriber<{ id: string; mySeat: number; turn: number }>(app.url, b.token).subscribe(S_TURNS, {}, (d) => d.myTurns as never);
    await feedsStarted(app.server, { playerId: a.id });
    await feedsStarted(app.server, { playerId: b.id });
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    await b.request(M_JOIN, { id: createMatch.id });
    const bySeat = new Map([
      [0, a],
      [1, b],
    ]);
    const rnd = lcg(3);
    // Play until the turn has come to each player at least twice (draws keep a turn, so the count of moves varies).
    for (let i = 0; i < 60 && (turnsA.received.length < 2 || turnsB.received.length < 2); i++) {
      await step(bySeat, createMatch.id, rnd);
      await new Promise((r) => setTimeout(r, 20)); // let the push for this move arrive
    }
    await turnsA.until((r) => r.length >= 2);
    await turnsB.until((r) => r.length >= 2);
    for (const [sub, seat] of [
      [turnsA, 0],
      [turnsB, 1],
    ] as const) {
      for (const m of sub.received) {
        expect(m.id).toBe(createMatch.id);
        expect(m.mySeat).toBe(seat);
        expect(m.turn).toBe(seat);
      }
    }
    await Promise.all([turnsA.close(), turnsB.close()]);
  });

  it('takes an id in capitals for the same match: its feed, its commands and its record stay one', async () => {
    const a = await app.player('ua');
    const b = await app.player('ub');
    // A target of 1: the match ends with its first round, and both players have stats.
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, rules: { targetScore: 1 } } });
    const matchId = createMatch.id;
    const shouted = matchId.toUpperCase(); // as pasted from a tool that prints UUIDs in capitals
    await b.request(M_JOIN, { id: shouted });
    const live = new Subscriber<Ev>(app.url, b.token).subscribe(S_EVENTS, { id: shouted, after: null }, pickEvent);
    await feedsStarted(app.server, { matchId });
    const before = await viewOf(a, matchId);
    const mover = before.turn === 0 ? a : b;
    const moves = (await viewOf(mover, shouted)).legalMoves;
    // Played through the id in capitals, then read through either spelling: one match, one version.
    await mover.request(M_PLAY, { input: { matchId: shouted, tile: moves[0].tile, end: moves[0].end, expectedVersion: before.version } });
    await live.until((r) => r.some((e) => e.type === 'TILE_PLAYED'));
    expect((await viewOf(a, shouted)).version).toBe(before.version + 1);
    expect((await viewOf(a, matchId)).version).toBe(before.version + 1);
    // A private match is listed only to its own player asking for their own id, in whichever case.
    const { createMatch: hidden } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, private: true } });
    const { matches } = await a.request<{ matches: { edges: { node: { id: string } }[] } }>(
      'query($p: ID) { matches(playerId: $p) { edges { node { id } } } }',
      { p: a.id.toUpperCase() },
    );
    expect(matches.edges.map((e) => e.node.id).sort()).toEqual([matchId, hidden.id].sort());
    const bySeat = new Map([
      [before.mySeat === 0 ? 0 : 1, a],
      [before.mySeat === 0 ? 1 : 0, b],
    ]);
    expect((await driveMatch(bySeat, shouted)).final.status).toBe('FINISHED');
    const Q_STATS = 'query($p: ID!) { playerStats(playerId: $p) { matchesPlayed matchesWon roundsPlayed } }';
    const stats = async (p: string) => (await b.request<{ playerStats: Record<string, number> }>(Q_STATS, { p })).playerStats;
    expect((await stats(b.id)).matchesPlayed).toBe(1);
    expect(await stats(b.id.toUpperCase())).toEqual(await stats(b.id));
    await live.close();
  });

  it('completes matchEvents once the match is over and its last event was sent, live or in a catch-up', async () => {
    const a = await app.player('ca');
    const b = await app.player('cb');
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    await b.request(M_JOIN, { id: createMatch.id });
    const live = new Subscriber<Ev>(app.url, b.token).subscribe(S_EVENTS, { id: createMatch.id, after: null }, pickEvent);
    await feedsStarted(app.server, { matchId: createMatch.id });
    expect(live.completed).toBe(false);
    await a.request('mutation($id: ID!) { resignMatch(matchId: $id) { status } }', { id: createMatch.id });
    await live.until((r) => r.length >= 2);
    expect(live.received.map((e) => e.type)).toEqual(['RESIGNED', 'MATCH_FINISHED']);
    const last = await lastEventSeqOf(app, createMatch.id);
    const replay = new Subscriber<Ev>(app.url).subscribe(S_EVENTS, { id: createMatch.id, after: 0 }, pickEvent);
    await replay.until((r) => r.length >= last);
    expect(replay.received.map((e) => e.seq)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    const deadline = Date.now() + 5_000;
    while (!(live.completed && replay.completed) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect([live.completed, replay.completed]).toEqual([true, true]);
    expect(replay.errors).toEqual([]);
    await Promise.all([live.close(), replay.close()]);
  });

  it('closes a connection with a bad token (4403), and refuses myTurns without one', async () => {
    const bad = new Subscriber<Ev>(app.url, 'not-a-token').subscribe(S_EVENTS, { id: '00000000-0000-0000-0000-000000000000', after: 0 }, pickEvent);
    expect(await bad.closed()).toBe(4403);
    const anon = new Subscriber(app.url).subscribe(S_TURNS, {}, (d) => d);
    await eventually(
      () => anon.errors.length,
      (n) => n > 0,
      'the refusal of myTurns',
    );
    expect(JSON.stringify(anon.errors)).toContain('UNAUTHENTICATED');
    await Promise.all([bad.close().catch(() => {}), anon.close()]);
  });
});

describe('two server instances sharing one database (PUBSUB=postgres)', () => {
  let a: TestApp;
  let b: RunningServer;
  beforeAll(async () => {
    a = await startTestApp({ PUBSUB: 'postgres' });
    b = await startServer(
      loadConfig({
        ...UNLIMITED,
        LOG_LEVEL: 'silent',
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: a.databaseUrl,
        MIGRATE_ON_START: 'false',
        PUBSUB: 'postgres',
      }),
      { logger: false },
    );
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('a subscriber on B receives moves made on A, in order', async () => {
    const p0 = await a.player('x0');
    const p1 = await a.player('x1');
    const { createMatch } = await p0.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    await p1.request(M_JOIN, { id: createMatch.id });
    const onB = new Subscriber<Ev>(b.url, p1.token).subscribe(S_EVENTS, { id: createMatch.id }, pickEvent);
    await feedsStarted(b, { matchId: createMatch.id }); // live only: subscribe before the moves
    const bySeat = new Map([
      [0, p0],
      [1, p1],
    ]);
    const rnd = lcg(5);
    for (let i = 0; i < 8; i++) await step(bySeat, createMatch.id, rnd); // every request goes to A
    const last = await lastEventSeqOf(a, createMatch.id);
    await onB.until((r) => r.at(-1)?.seq === last);
    const seqs = onB.received.map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0] + i));
    expect(seqs.at(-1)).toBe(last);
    expect(onB.received.filter((e) => e.type === 'TILE_PLAYED').length).toBeGreaterThan(0);
    await onB.close();
  });
});
