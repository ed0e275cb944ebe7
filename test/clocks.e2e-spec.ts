import { PrismaService } from '../src/database/prisma.service.js';
import type { MatchRecordV2 } from '../src/history/record-format-v2.js';
import { verifyRecord } from '../src/history/verify-record.js';
import { MatchesRepository } from '../src/matches/matches.repository.js';
import { startServer, type RunningServer } from '../src/bootstrap.js';
import { instanceConfig, startTestApp, type TestApp } from './support/app.js';
import { clockedDuel, clockedView, moveNow, storedEvents, timeoutsOf } from './support/clocks.js';
import { eventually } from './support/eventually.js';
import type { GqlClient } from './support/gql.js';
import { recordValidator } from './support/history-verify.js';
import { Subscriber } from './support/ws.js';

const S_EVENTS = `subscription($id: ID!) { matchEvents(matchId: $id, afterSeq: 0) {
  seq type kind seat move { seq seat type timedOut } match { status winner { index } } } }`;

interface EventT {
  seq: number;
  type: string;
  kind: string;
  seat: number | null;
  move: { seq: number; seat: number; type: string; timedOut: boolean } | null;
  match: { status: string; winner: { index: number } | null };
}

const Q_TO_MOVE = `query($first: Int, $after: String) { toMove(first: $first, after: $after) {
  totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id deadline turn mySeat } } } }`;

describe('clocks', () => {
  let app: TestApp;
  let prisma: PrismaService;
  let a: GqlClient;
  let b: GqlClient;
  beforeAll(async () => {
    app = await startTestApp({ CLOCK_MIN_SECONDS: '1', SWEEP_INTERVAL_MS: '50' });
    prisma = app.server.app.get(PrismaService);
    [a, b] = await Promise.all([app.player('ann'), app.player('bob')]);
  });
  afterAll(() => app.close());

  it('PER_MOVE with BOT_PLAYS: a silent seat is warned once, times out, is played for, and forfeits after forfeitAfter in a row', async () => {
    // 6 s turns: each warning's window (80 % of the turn to its end) is 1.2 s, wide enough for a loaded machine's sweeps.
    const id = await clockedDuel(a, b, { kind: 'PER_MOVE', moveSeconds: 6, forfeitAfter: 2 });
    const first = await clockedView(a, id);
    expect(first.clock).toEqual({
      kind: 'PER_MOVE',
      moveSeconds: 6,
      bankSeconds: null,
      incrementSeconds: null,
      maxBankSeconds: null,
      onTimeout: 'BOT_PLAYS',
      forfeitAfter: 2,
    });
    expect(first.deadline).not.toBeNull();
    const x = first.turn!;
    const feed = new Subscriber<EventT>(app.url, a.token).subscribe(S_EVENTS, { id }, (d) => d.matchEvents as EventT);
    await feed.until((r) => r.some((e) => e.type === 'MATCH_FINISHED'), 60_000); // three turns run out
    await feed.close();
    const events = feed.received;
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1)); // pushed in seq order, no gaps
    expect(events.every((e) => e.kind === e.type)).toBe(true);

    // Seat x times out, the other seat times out, seat x times out again: its second in a row forfeits.
    const timedOut = events.filter((e) => e.type === 'TIMED_OUT').map((e) => e.seat);
    expect(timedOut).toEqual([x, 1 - x, x]);
    const last = events.findIndex(
      (e, i) => e.type === 'TIMED_OUT' && i > 0 && timedOut.length === 3 && events.slice(i + 1).every((f) => f.type !== 'TIMED_OUT'),
    );
    expect(events[last + 1].type).toBe('MATCH_FINISHED');
    expect(events.at(-1)!.match.winner!.index).toBe(1 - x);
    // After each other TIMED_OUT: that seat's move, made by the server.
    events.forEach((e, i) => {
      if (e.type === 'TIMED_OUT' && i !== last) expect(events[i + 1].move).toMatchObject({ seat: e.seat, timedOut: true });
    });
    // DEADLINE_SOON exactly once per turn that ran out, for that seat, before its TIMED_OUT.
    const warnings = events.filter((e) => e.type === 'DEADLINE_SOON').map((e) => e.seat);
    expect(warnings).toEqual(timedOut);
    events.forEach((e, i) => {
      if (e.type === 'TIMED_OUT')
        expect(
          events
            .slice(0, i)
            .filter((f) => f.type === 'DEADLINE_SOON' || f.type === 'TIMED_OUT')
            .at(-1),
        ).toMatchObject({ type: 'DEADLINE_SOON', seat: e.seat });
    });
    timeoutsOf(await storedEvents(prisma, id));

    const end = await clockedView(a, id);
    expect(end.status).toBe('FINISHED');
    expect(end.deadline).toBeNull();
    expect(end.seats.map((s) => s.timeouts)).toEqual(x === 0 ? [2, 1] : [1, 2]);
    expect(end.currentRound!.moves.filter((m) => m.timedOut).every((m) => m.seat !== undefined)).toBe(true);
    expect(end.currentRound!.moves.some((m) => m.timedOut)).toBe(true);
  });

  it("FORFEIT: the first timeout ends the match, the silent seat's side loses", async () => {
    const id = await clockedDuel(a, b, { kind: 'PER_MOVE', moveSeconds: 1, onTimeout: 'FORFEIT' });
    const x = (await clockedView(a, id)).turn!;
    const events = await eventually(
      () => storedEvents(prisma, id),
      (ev) => ev.some((e) => e.type === 'MATCH_FINISHED'),
      'the forfeit',
    );
    expect(events.slice(-2).map((e) => [e.type, e.seat])).toEqual([
      ['TIMED_OUT', x],
      ['MATCH_FINISHED', null],
    ]);
    const end = await clockedView(b, id);
    expect(end).toMatchObject({ status: 'FINISHED', deadline: null, winner: { index: 1 - x } });
    expect(end.currentRound!.moves).toEqual([]);
    // The match record tells a forfeit on time from a resignation, and still verifies.
    const record = (await (await fetch(`${app.url}/matches/${id}/record`)).json()) as MatchRecordV2;
    expect(recordValidator()(record).errors).toBeNull();
    expect(record).toMatchObject({ ending: 'RESIGNED', forfeit: { cause: 'TIMED_OUT', seat: x }, winner: 1 - x });
    expect(verifyRecord(record).problems).toEqual([]);
  });

  it('BANK: each turn costs its time, the increment is added after it, and the bank is capped', async () => {
    const id = await clockedDuel(a, b, { kind: 'BANK', bankSeconds: 20, incrementSeconds: 15, maxBankSeconds: 22 });
    const bySeat = new Map<number, GqlClient>();
    const readState = async () =>
      (await prisma.match.findUniqueOrThrow({ where: { id } })).clockState as {
        seat: number;
        since: number;
        deadline: number;
        bankMs: number[];
        timeouts: number[];
      };
    const start = await readState();
    for (const p of [a, b]) bySeat.set((await clockedView(p, id)).mySeat!, p);
    expect(start.bankMs).toEqual([20_000, 20_000]);
    expect(start.deadline - start.since).toBe(20_000);
    let before = start;
    for (let turn = 0; turn < 4; turn++) {
      const mover = bySeat.get(before.seat)!;
      await moveNow(mover, await clockedView(mover, id));
      const after = await readState();
      if (after.seat === before.seat) continue; // a draw: still the same turn and the same deadline
      const used = after.since - before.since;
      const expected = Math.min(22_000, Math.max(0, before.bankMs[before.seat] - used) + 15_000);
      expect(after.bankMs[before.seat]).toBe(expected);
      expect(after.deadline - after.since).toBe(after.bankMs[after.seat]);
      // Through the API: the seat that just moved shows its bank; the seat to move, its bank running down.
      const view = await clockedView(a, id);
      expect(view.seats[before.seat].timeLeftSeconds).toBe(expected / 1000);
      expect(view.seats[after.seat].timeLeftSeconds).toBeLessThanOrEqual(after.bankMs[after.seat] / 1000);
      expect(new Date(view.deadline!).getTime()).toBe(after.deadline);
      before = after;
    }
    expect(before.bankMs.some((ms) => ms === 22_000)).toBe(true); // what was left + 15 is over the cap of 22
    await a.request('mutation($id: ID!) { resignMatch(matchId: $id) { id } }', { id });
    const end = await clockedView(a, id);
    expect(end.deadline).toBeNull();
  });

  it('toMove lists the matches waiting on the caller, nearest deadline first and no clock last; toMoveCount counts them', async () => {
    const p = await app.player('tom');
    const create = async (input: Record<string, unknown>) =>
      (await p.request<{ createMatch: { id: string } }>('mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }', { input }))
        .createMatch.id;
    // Against a bot: the bot's turns are played at once, so each of these waits on p.
    const soon = await create({ seats: 2, bots: 1, clock: { kind: 'PER_MOVE', moveSeconds: 3_000 } });
    const none = await create({ seats: 2, bots: 1 });
    const later = await create({ seats: 2, bots: 1, clock: { kind: 'BANK', bankSeconds: 90_000 } });
    const sooner = await create({ seats: 2, bots: 1, clock: { kind: 'PER_MOVE', moveSeconds: 600 } });
    // One with another human, whoever is to move there.
    const q = await app.player('quinn');
    const duel = await clockedDuel(p, q, { kind: 'PER_MOVE', moveSeconds: 60 });
    const duelTurn = await clockedView(p, duel);
    const pMoves = duelTurn.turn === duelTurn.mySeat;
    const ids = [...(pMoves ? [duel] : []), sooner, soon, later, none];
    await eventually(
      () => p.request<{ me: { toMoveCount: number } }>('{ me { toMoveCount } }'),
      (r) => r.me.toMoveCount === ids.length,
      'bots handing the turns back',
    );
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: {
        toMove: {
          totalCount: number;
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
          edges: { node: { id: string; deadline: string | null; turn: number; mySeat: number } }[];
        };
      } = await p.request(Q_TO_MOVE, { first: 2, after });
      expect(page.toMove.totalCount).toBe(ids.length);
      for (const e of page.toMove.edges) expect(e.node.turn).toBe(e.node.mySeat);
      seen.push(...page.toMove.edges.map((e) => e.node.id));
      if (!page.toMove.pageInfo.hasNextPage) break;
      after = page.toMove.pageInfo.endCursor;
    }
    expect(seen).toEqual(ids);
    const qList = await q.request<{ toMove: { totalCount: number; edges: { node: { id: string } }[] } }>(Q_TO_MOVE, {});
    expect(qList.toMove.edges.map((e) => e.node.id)).toEqual(pMoves ? [] : [duel]);
    expect((await q.request<{ me: { toMoveCount: number } }>('{ me { toMoveCount } }')).me.toMoveCount).toBe(pMoves ? 0 : 1);
    // A cursor this API never gave, and no token.
    expect(await q.errorCode('{ toMove(after: "bm90IGEgY3Vyc29y") { totalCount } }')).toBe('BAD_USER_INPUT');
    expect(await app.anon.errorCode('{ toMove { totalCount } }')).toBe('UNAUTHENTICATED');
  });

  it.each([
    [{ kind: 'PER_MOVE' }, /moveSeconds is required/],
    [{ kind: 'PER_MOVE', moveSeconds: 0 }, /moveSeconds must be a whole number of seconds from 1 to 2592000/],
    [{ kind: 'BANK', bankSeconds: 2_592_001 }, /bankSeconds must be/],
    [{ kind: 'PER_MOVE', moveSeconds: 60, bankSeconds: 60 }, /bankSeconds does not apply to kind PER_MOVE/],
    [{ kind: 'BANK', bankSeconds: 60, moveSeconds: 60 }, /moveSeconds does not apply to kind BANK/],
    [{ kind: 'PER_MOVE', moveSeconds: 60, onTimeout: 'FORFEIT', forfeitAfter: 1 }, /forfeitAfter does not apply/],
  ])('refuses the clock %j with BAD_USER_INPUT', async (clock, message) => {
    const { body } = await a.raw('mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }', { input: { seats: 2, clock } });
    expect(body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(body.errors![0].message).toMatch(message);
  });
});

describe('clocks across two instances', () => {
  let app: TestApp;
  let sweeper: RunningServer;
  let prisma: PrismaService;
  let a: GqlClient;
  beforeAll(async () => {
    // This instance serves the player and never sweeps; the other one runs the clocks' due work.
    const clocks = { PUBSUB: 'postgres', CLOCK_MIN_SECONDS: '1' };
    app = await startTestApp({ ...clocks, SWEEP_INTERVAL_MS: '600000' });
    sweeper = await startServer(instanceConfig(app.databaseUrl, { ...clocks, SWEEP_INTERVAL_MS: '50' }), { logger: false });
    prisma = app.server.app.get(PrismaService);
    a = await app.player('ann');
  });
  afterAll(async () => {
    await sweeper.close();
    await app.close();
  });

  it("a move that loses the race for its turn to the server's moves at the deadline is refused (TURN_ENDED), not applied to the seat's next turn", async () => {
    const { createMatch } = await a.request<{ createMatch: { id: string } }>(
      `mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }`,
      { input: { seats: 2, bots: 1, clock: { kind: 'PER_MOVE', moveSeconds: 1 } } },
    );
    const id = createMatch.id;
    const mine = await eventually(
      () => clockedView(a, id),
      (m) => m.status === 'IN_PROGRESS' && m.turn === m.mySeat,
      'the first turn of the human seat',
    );
    // The player's commit is held on this instance until the deadline passed, the other instance
    // moved for the seat, its bot moved, and the seat is to move again: the command, decided for
    // the turn it saw, then loses the compare-and-set and is decided again on a later turn of the
    // same seat. (Within one instance the server's moves would wait for the held command.)
    const repo = app.server.app.get(MatchesRepository);
    const commit = repo.commit.bind(repo);
    repo.commit = async (c, seats) => {
      if (c.matchId === id && c.playerId === a.id) {
        await eventually(
          () => clockedView(a, id),
          (m) =>
            m.turn === m.mySeat && m.version > c.expectedVersion && (m.currentRound?.moves.some((mv) => mv.timedOut) || m.currentRound!.number > 1),
          'the seat to move again after the server moved for it',
        );
      }
      return commit(c, seats);
    };
    try {
      const mv = mine.legalMoves[0];
      const input = { matchId: id, clientMoveId: 'raced-the-deadline' };
      const { body } = mv
        ? await a.raw('mutation($i: PlayTileInput!) { playTile(input: $i) { version } }', { i: { ...input, tile: mv.tile, end: mv.end } })
        : await a.raw('mutation($i: TurnInput!) { drawTile(input: $i) { version } }', { i: input });
      expect(body.errors?.[0].extensions).toMatchObject({ code: 'NOT_YOUR_TURN', reason: 'TURN_ENDED' });
      expect(await prisma.move.count({ where: { matchId: id, clientMoveId: 'raced-the-deadline' } })).toBe(0);
    } finally {
      repo.commit = commit;
      await a.request('mutation($id: ID!) { resignMatch(matchId: $id) { status } }', { id }).catch(() => undefined);
    }
  });
});
