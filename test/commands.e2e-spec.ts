import { PrismaService } from '../src/database/prisma.service.js';
import { MatchCache } from '../src/matches/match-cache.js';
import { startTestApp, type TestApp } from './support/app.js';
import { viewOf } from './support/driver.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';
import type { GqlClient } from './support/gql.js';

const PLAY = 'mutation($i: PlayTileInput!) { playTile(input: $i) { id version turn myHand { high low } } }';
const DRAW = 'mutation($i: TurnInput!) { drawTile(input: $i) { id version } }';

describe('commands: races, idempotency and typed errors', () => {
  let app: TestApp;
  let prisma: PrismaService;
  beforeAll(async () => {
    app = await startTestApp();
    prisma = app.server.app.get(PrismaService);
  });
  afterAll(async () => {
    await app.close();
  });

  async function twoPlayer(rules: Record<string, unknown> = {}): Promise<{ id: string; a: GqlClient; b: GqlClient; bySeat: Map<number, GqlClient> }> {
    const a = await app.player('a');
    const b = await app.player('b');
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, rules } });
    await b.request(M_JOIN, { id: createMatch.id });
    return {
      id: createMatch.id,
      a,
      b,
      bySeat: new Map([
        [0, a],
        [1, b],
      ]),
    };
  }

  const moveCount = (matchId: string) => prisma.move.count({ where: { matchId } });

  it('20 parallel plays for one turn: exactly one succeeds, the rest are NOT_YOUR_TURN or STALE_VERSION', async () => {
    const { id, bySeat } = await twoPlayer();
    const pub = await viewOf(bySeat.get(0)!, id);
    const mover = bySeat.get(pub.turn!)!;
    const me = await viewOf(mover, id);
    const before = await moveCount(id);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        mover.raw(PLAY, {
          i: {
            matchId: id,
            tile: me.legalMoves[i % me.legalMoves.length].tile,
            end: me.legalMoves[i % me.legalMoves.length].end,
            expectedVersion: i % 2 ? me.version : null,
          },
        }),
      ),
    );
    const ok = results.filter((r) => !r.body.errors);
    const codes = results.filter((r) => r.body.errors).map((r) => r.body.errors![0].extensions?.code);
    expect(ok).toHaveLength(1);
    expect(codes).toHaveLength(19);
    for (const c of codes) expect(['NOT_YOUR_TURN', 'STALE_VERSION']).toContain(c);
    expect((await moveCount(id)) - before).toBeGreaterThanOrEqual(1);
    // One command: one PLAY row (plus any automatic passes it caused).
    expect(await prisma.move.count({ where: { matchId: id, type: { not: 'PASS' } } })).toBe(1);
  });

  it('20 parallel retries sharing one clientMoveId: one move, 20 identical answers', async () => {
    const { id, bySeat } = await twoPlayer();
    const pub = await viewOf(bySeat.get(0)!, id);
    const mover = bySeat.get(pub.turn!)!;
    const me = await viewOf(mover, id);
    const mv = me.legalMoves[0];
    const results = await Promise.all(
      Array.from({ length: 20 }, () => mover.raw(PLAY, { i: { matchId: id, tile: mv.tile, end: mv.end, clientMoveId: 'retry-1' } })),
    );
    for (const r of results) expect(r.body.errors).toBeUndefined();
    const answers = results.map((r) => JSON.stringify(r.body.data));
    expect([...new Set(answers)]).toEqual([answers[0]]);
    expect(await prisma.move.count({ where: { matchId: id, type: { not: 'PASS' } } })).toBe(1);
    // And a later retry still answers without applying anything, with the tile's halves in either order.
    const again = await mover.raw(PLAY, { i: { matchId: id, tile: { high: mv.tile.low, low: mv.tile.high }, end: mv.end, clientMoveId: 'retry-1' } });
    expect(again.body.errors).toBeUndefined();
    expect(await prisma.move.count({ where: { matchId: id, type: { not: 'PASS' } } })).toBe(1);
    // The same key on another move is a client bug, not a retry: refused, nothing applied.
    const other = me.myHand!.find((t) => t.high !== mv.tile.high || t.low !== mv.tile.low)!;
    expect(await mover.errorCode(PLAY, { i: { matchId: id, tile: other, clientMoveId: 'retry-1' } })).toBe('BAD_USER_INPUT');
    expect(await mover.errorCode(DRAW, { i: { matchId: id, clientMoveId: 'retry-1' } })).toBe('BAD_USER_INPUT');
    // So is the key with a tile that does not exist: another move too, refused as one, not a crash.
    const noTile = await mover.raw(PLAY, { i: { matchId: id, tile: { high: 9, low: 9 }, clientMoveId: 'retry-1' } });
    expect(noTile.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', moveSeq: expect.any(Number) });
    expect(await prisma.move.count({ where: { matchId: id, type: { not: 'PASS' } } })).toBe(1);
  });

  it('8 players racing for the last seat: one sits and starts the match, the rest get MATCH_FULL; the history holds the two seated', async () => {
    const host = await app.player('host');
    const { id } = (await host.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } })).createMatch;
    const rivals = await Promise.all(Array.from({ length: 8 }, (_, i) => app.player(`rival${i}`)));
    const results = await Promise.all(rivals.map((r) => r.raw(M_JOIN, { id })));
    const seated = rivals.filter((_, i) => !results[i].body.errors);
    expect(seated).toHaveLength(1);
    for (const r of results.filter((x) => x.body.errors)) expect(r.body.errors![0].extensions?.code).toBe('MATCH_FULL');
    const seats = await prisma.seat.findMany({ where: { matchId: id }, orderBy: { index: 'asc' } });
    expect(seats.map((s) => s.playerId)).toEqual([host.id, seated[0].id]);
    const history = await prisma.playerMatch.findMany({ where: { matchId: id }, orderBy: { seat: 'asc' } });
    expect(history.map((h) => [h.playerId, h.seat, h.status])).toEqual([
      [host.id, 0, 'IN_PROGRESS'],
      [seated[0].id, 1, 'IN_PROGRESS'],
    ]);
    const events = await prisma.matchEvent.findMany({ where: { matchId: id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.type).slice(0, 3)).toEqual(['PLAYER_JOINED', 'PLAYER_JOINED', 'MATCH_STARTED']);
    expect(events.filter((e) => e.type === 'PLAYER_JOINED' || e.type === 'MATCH_STARTED')).toHaveLength(3);
    expect(await prisma.round.count({ where: { matchId: id } })).toBe(1);
  });

  it('24 commands at once on one match that do not exclude each other: every one applies, none is STALE_VERSION', async () => {
    // Each is decided on what the one before it committed (one instance takes them in turn), as a
    // resign sent while the bots move back to back is: before, each lost race after race to a
    // commit decided a moment earlier, and half of them answered STALE_VERSION.
    const host = await app.player('host');
    const { id } = (await host.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 4 } })).createMatch;
    const guests = await Promise.all([app.player('guest1'), app.player('guest2')]);
    for (const g of guests) await g.request(M_JOIN, { id });
    const players = [host, ...guests];
    const before = await prisma.match.findUniqueOrThrow({ where: { id }, select: { version: true } });
    const SEED = 'mutation($id: ID!, $seed: String!) { setClientSeed(matchId: $id, clientSeed: $seed) { version } }';
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => players[i % 3].raw(SEED, { id, seed: `seed-${i}` })));
    expect(results.flatMap((r) => r.body.errors?.map((e) => e.extensions?.code) ?? [])).toEqual([]);
    const after = await prisma.match.findUniqueOrThrow({ where: { id }, select: { version: true } });
    expect(after.version - before.version).toBe(24);
    const versions = results.map((r) => (r.body.data as { setClientSeed: { version: number } }).setClientSeed.version);
    expect(new Set(versions).size).toBe(24);
  });

  it('10 parallel copies of the move that ends a round: the round ends once, and the stats count it once', async () => {
    const { id, a, b, bySeat } = await twoPlayer();
    // Play on until the mover holds one tile and can play it: going out ends the round.
    let me = await viewOf(a, id);
    for (let commands = 0; ; commands++) {
      expect(commands).toBeLessThan(300);
      me = await viewOf(bySeat.get((await viewOf(a, id)).turn!)!, id);
      if (me.myHand!.length === 1 && me.legalMoves.length > 0) break;
      const mover = bySeat.get(me.mySeat!)!;
      if (me.legalMoves.length > 0) await mover.request(PLAY, { i: { matchId: id, tile: me.legalMoves[0].tile, end: me.legalMoves[0].end } });
      else await mover.request(DRAW, { i: { matchId: id } });
    }
    const mover = bySeat.get(me.mySeat!)!;
    const last = me.legalMoves[0];
    const finishedBefore = await prisma.round.count({ where: { matchId: id, status: 'FINISHED' } });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => mover.raw(PLAY, { i: { matchId: id, tile: last.tile, end: last.end, expectedVersion: me.version } })),
    );
    // The domino seat leads the next round, so only expectedVersion tells a duplicate from a new lead.
    expect(results.filter((r) => !r.body.errors)).toHaveLength(1);
    for (const r of results.filter((x) => x.body.errors)) expect(r.body.errors![0].extensions?.code).toBe('STALE_VERSION');
    const finished = await prisma.round.count({ where: { matchId: id, status: 'FINISHED' } });
    expect(finished).toBe(finishedBefore + 1);
    expect(await prisma.matchEvent.count({ where: { matchId: id, type: 'ROUND_ENDED' } })).toBe(finished);
    // Each finished round counted once for each player, and every point of the match is someone's.
    const stats = await prisma.playerStats.findMany({ where: { playerId: { in: [a.id, b.id] } } });
    expect(stats.map((s) => s.roundsPlayed)).toEqual([finished, finished]);
    const teams = await prisma.team.findMany({ where: { matchId: id } });
    expect(stats.reduce((sum, s) => sum + s.pointsScored, 0)).toBe(teams.reduce((sum, t) => sum + t.score, 0));
  });

  it('scopes a clientMoveId to one player in one match: another player, or another match, may use it for a new move', async () => {
    /** Moves by whoever is to move (without a key) until it is `seat`'s turn; then `seat` moves with key "k". */
    const moveWithK = async (matchId: string, clients: Map<number, GqlClient>, seat: number) => {
      for (let guard = 0; ; guard++) {
        const turn = (await viewOf(clients.get(0)!, matchId)).turn!;
        const me = await viewOf(clients.get(turn)!, matchId);
        const key = turn === seat ? { clientMoveId: 'k' } : {};
        if (me.legalMoves.length > 0)
          await clients.get(turn)!.request(PLAY, { i: { matchId, tile: me.legalMoves[0].tile, end: me.legalMoves[0].end, ...key } });
        else await clients.get(turn)!.request(DRAW, { i: { matchId, ...key } });
        if (turn === seat || guard > 50) return;
      }
    };
    const { id, bySeat } = await twoPlayer();
    await moveWithK(id, bySeat, 0);
    const afterFirst = await moveCount(id);
    // Seat 1's "k" is a move of its own, not a retry of seat 0's.
    await moveWithK(id, bySeat, 1);
    expect(await moveCount(id)).toBeGreaterThan(afterFirst);
    expect(await prisma.move.count({ where: { matchId: id, clientMoveId: 'k' } })).toBe(2);
    // Seat 0's player uses "k" again in another match: a new move there too.
    const other = await app.player('other');
    const { createMatch } = await bySeat.get(0)!.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    await other.request(M_JOIN, { id: createMatch.id });
    await moveWithK(
      createMatch.id,
      new Map([
        [0, bySeat.get(0)!],
        [1, other],
      ]),
      0,
    );
    expect(await prisma.move.count({ where: { matchId: createMatch.id, clientMoveId: 'k', playerId: bySeat.get(0)!.id } })).toBe(1);
  });

  it('gives every bad input its contract code and changes nothing', async () => {
    const { id, a, b, bySeat } = await twoPlayer();
    const outsider = await app.player('outsider');
    const pub = await viewOf(a, id);
    const mover = bySeat.get(pub.turn!)!;
    const waiter = bySeat.get(1 - pub.turn!)!;
    const me = await viewOf(mover, id);
    const held = me.myHand![0];
    const notHeld = (await viewOf(waiter, id)).myHand![0];
    const snapshot = async () => JSON.stringify(await prisma.match.findUniqueOrThrow({ where: { id }, select: { version: true, state: true } }));
    const before = await snapshot();
    const cases: [string, GqlClient, string, Record<string, unknown>][] = [
      ['UNAUTHENTICATED', app.anon, PLAY, { i: { matchId: id, tile: held } }],
      ['BAD_USER_INPUT', mover, PLAY, { i: { matchId: 'not-an-id', tile: held } }],
      ['NOT_FOUND', mover, PLAY, { i: { matchId: '00000000-0000-4000-8000-000000000000', tile: held } }],
      ['BAD_USER_INPUT', mover, PLAY, { i: { matchId: id, tile: { high: 7, low: 1 } } }],
      ['BAD_USER_INPUT', mover, PLAY, { i: { matchId: id, tile: { high: -1, low: 1 } } }],
      ['ILLEGAL_MOVE', mover, PLAY, { i: { matchId: id, tile: notHeld } }],
      ['ILLEGAL_MOVE', mover, PLAY, { i: { matchId: id, tile: held, end: 'UP' } }], // the lead takes no end
      ['NOT_YOUR_TURN', waiter, PLAY, { i: { matchId: id, tile: notHeld } }],
      ['FORBIDDEN', outsider, PLAY, { i: { matchId: id, tile: held } }],
      ['STALE_VERSION', mover, PLAY, { i: { matchId: id, tile: held, expectedVersion: me.version - 1 } }],
      ['MUST_PLAY', mover, DRAW, { i: { matchId: id } }], // the leader can always play
      ['NOT_YOUR_TURN', waiter, DRAW, { i: { matchId: id } }],
      ['MATCH_FULL', outsider, M_JOIN, { id }],
      ['BAD_USER_INPUT', a, M_CREATE, { input: { seats: 5 } }],
      ['BAD_USER_INPUT', a, M_CREATE, { input: { seats: 4, rules: { handSize: 10 } } }],
      ['BAD_USER_INPUT', a, M_CREATE, { input: { seats: 3, partnerships: true } }],
      ['BAD_USER_INPUT', a, M_CREATE, { input: { seats: 2, bots: 2 } }],
      ['BAD_USER_INPUT', a, PLAY, { i: { matchId: id, tile: 'x' } }],
    ];
    for (const [code, client, query, vars] of cases) {
      const res = await client.raw(query, vars);
      expect({ vars, code: res.body.errors?.[0]?.extensions?.code }).toEqual({ vars, code });
      expect(res.body.errors![0].message.length).toBeGreaterThan(5);
    }
    expect(await snapshot()).toBe(before);
    void b;
  });

  it('starts no match of 1-tile hands: a table of bots would play it out alone, a commit a round', async () => {
    const a = await app.player('one-tile');
    const count = () => prisma.match.count({ where: { createdById: a.id } });
    const res = await a.raw(M_CREATE, { input: { seats: 2, bots: 1, rules: { handSize: 1, targetScore: 10000 } } });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      problems: ['handSize must be at least 2 on this server (got 1)'],
    });
    expect(await count()).toBe(0);
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, bots: 1, rules: { handSize: 2 } } });
    expect(createMatch.status).toBe('IN_PROGRESS');
    expect(await count()).toBe(1);
    // Nor a rematch of one stored before the rule: it would be the same match again.
    await a.request('mutation($id: ID!) { resignMatch(matchId: $id) { status } }', { id: createMatch.id });
    await prisma.$executeRaw`UPDATE "Match" SET "rules" = jsonb_set("rules", '{handSize}', '1') WHERE "id" = ${createMatch.id}::uuid`;
    app.server.app.get(MatchCache).forget(createMatch.id);
    const rematch = await a.raw('mutation($id: ID!) { rematch(matchId: $id) { id } }', { id: createMatch.id });
    expect(rematch.body.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      problems: ['handSize must be at least 2 on this server (got 1)'],
    });
    expect(await count()).toBe(1);
  });

  it('a legal move is not refused on a cached state that is behind the database (another instance committed, its signal not here yet)', async () => {
    const { id, bySeat } = await twoPlayer();
    const cache = app.server.app.get(MatchCache);
    const first = await viewOf(bySeat.get(0)!, id);
    const behind = cache.get(id)!;
    expect(behind.version).toBe(first.version);
    // The seat to move draws if it can, else plays: the match moves on by one commit.
    const mover = bySeat.get(first.turn!)!;
    const view = await viewOf(mover, id);
    if (view.legalMoves.length > 0) await mover.request(PLAY, { i: { matchId: id, tile: view.legalMoves[0].tile, end: view.legalMoves[0].end } });
    else await mover.request(DRAW, { i: { matchId: id } });
    // What an instance that did not make that commit may still hold.
    cache.forget(id);
    cache.set(behind);
    const now = await prisma.match.findUniqueOrThrow({ where: { id }, select: { version: true, turn: true } });
    expect(now.version).toBeGreaterThan(behind.version);
    const next = bySeat.get(now.turn!)!;
    cache.forget(id);
    const fresh = await viewOf(next, id);
    cache.forget(id);
    cache.set(behind);
    const move = fresh.legalMoves[0];
    const answer = move
      ? await next.request<{ playTile: { version: number } }>(PLAY, {
          i: { matchId: id, tile: move.tile, end: move.end, expectedVersion: now.version },
        })
      : await next.request<{ drawTile: { version: number } }>(DRAW, { i: { matchId: id, expectedVersion: now.version } });
    expect(Object.values(answer)[0].version).toBe(now.version + 1);
  });

  it('refuses moves once the match is over with MATCH_NOT_IN_PROGRESS', async () => {
    const { id, a, b } = await twoPlayer();
    await a.request('mutation($id: ID!) { resignMatch(matchId: $id) { status } }', { id });
    const m = await viewOf(b, id);
    expect(m.status).toBe('FINISHED');
    expect(m.winner!.index).toBe(1);
    expect(await b.errorCode(DRAW, { i: { matchId: id } })).toBe('MATCH_NOT_IN_PROGRESS');
    expect(await a.errorCode(PLAY, { i: { matchId: id, tile: { high: 0, low: 0 } } })).toBe('MATCH_NOT_IN_PROGRESS');
  });

  it('lets a player leave before the start, and abandons a match nobody sits in', async () => {
    const a = await app.player('la');
    const b = await app.player('lb');
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 3 } });
    await b.request(M_JOIN, { id: createMatch.id });
    const leave = 'mutation($id: ID!) { leaveMatch(matchId: $id) { status seats { player { id } } } }';
    const afterB = await b.request<{ leaveMatch: { status: string; seats: { player: { id: string } | null }[] } }>(leave, { id: createMatch.id });
    expect(afterB.leaveMatch.status).toBe('WAITING');
    expect(afterB.leaveMatch.seats.filter((s) => s.player).length).toBe(1);
    const afterA = await a.request<{ leaveMatch: { status: string } }>(leave, { id: createMatch.id });
    expect(afterA.leaveMatch.status).toBe('ABANDONED');
  });
});
