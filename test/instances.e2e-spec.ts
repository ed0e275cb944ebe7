import { jest } from '@jest/globals';
import pg from 'pg';
import { startServer, type RunningServer } from '../src/bootstrap.js';
import { INSTANCE_KEY } from '../src/realtime/instance-slot.js';
import { PrismaService } from '../src/database/prisma.service.js';
import { actionsFromMoves, apply, botSeed, chooseBotAction, newMatch, viewFor } from '../src/domain/index.js';
import { BotsService } from '../src/matches/bots.service.js';
import { MatchCache } from '../src/matches/match-cache.js';
import { EVENT_BUS, type EventBus } from '../src/realtime/event-bus.js';
import { dropTestDatabase } from './setup/test-database.js';
import { storedMoves } from './support/replay-check.js';
import { instanceConfig, startTestApp, type TestApp } from './support/app.js';
import { lcg, viewOf } from './support/driver.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';
import { GqlClient } from './support/gql.js';
import { expectReplayable } from './support/replay-check.js';
import { spawnServer, startServerChild, type ListeningServer } from './support/server-process.js';
import { eventually } from './support/eventually.js';
import { Subscriber } from './support/ws.js';

/** One move by this human, once their turn shows on the instance asked, from their own legal moves. */
async function humanMove(client: GqlClient, matchId: string, rnd: () => number): Promise<void> {
  const me = await eventually(
    () => viewOf(client, matchId),
    (m) => m.status !== 'IN_PROGRESS' || m.turn === m.mySeat,
    `${client.me?.name}'s turn`,
  );
  if (me.status !== 'IN_PROGRESS') return;
  const input = { matchId, expectedVersion: me.version };
  if (me.legalMoves.length > 0) {
    const mv = me.legalMoves[Math.floor(rnd() * me.legalMoves.length)];
    await client.request('mutation($i: PlayTileInput!) { playTile(input: $i) { version } }', { i: { ...input, tile: mv.tile, end: mv.end } });
  } else {
    await client.request('mutation($i: TurnInput!) { drawTile(input: $i) { version } }', { i: input });
  }
}

/** Matches of these whose seat to move is a bot, from the database. */
async function botToMove(prisma: PrismaService, ids: string[]): Promise<string[]> {
  const rows = await prisma.match.findMany({ where: { id: { in: ids }, status: 'IN_PROGRESS' }, include: { seats: true } });
  return rows.filter((m) => m.seats.find((s) => s.index === m.turn)?.isBot).map((m) => m.id);
}

/**
 * Every stored bot move is what that bot chooses at that position, applied once: replaying the
 * match from its seed, each bot move leaves the same state as the bot's own choice there.
 */
async function expectEveryBotMoveChosenOnce(prisma: PrismaService, matchId: string): Promise<number> {
  const m = await prisma.match.findUniqueOrThrow({ where: { id: matchId }, include: { seats: true } });
  const { config, moves } = await storedMoves(prisma, matchId);
  const deal = config.deal;
  let { state } = newMatch(config);
  let botMoves = 0;
  for (const action of actionsFromMoves(moves)) {
    const seat = m.seats.find((s) => s.index === action.seat)!;
    const stored = apply(state, action);
    if (!stored.ok) throw new Error(`stored move refused on replay: ${stored.violation.code}`);
    if (seat.isBot) {
      const choice = chooseBotAction(viewFor(state, seat.index), seat.botStrategy === 'random' ? 'random' : 'greedy', botSeed(deal, state.lastSeq));
      const chosen = apply(state, choice);
      expect(chosen.ok && chosen.state).toEqual(stored.state);
      botMoves++;
    }
    state = stored.state;
  }
  return botMoves;
}

describe('PUBSUB=memory serves a single instance', () => {
  let a: TestApp;
  let aStopped = false;
  beforeAll(async () => {
    a = await startTestApp();
  });
  afterAll(async () => {
    if (aStopped) await dropTestDatabase(process.env.TEST_PG_SERVER_URL!, a.databaseUrl);
    else await a.close();
  });

  it('refuses a second instance on the same database, with either PUBSUB, in one line', async () => {
    for (const pubsub of ['memory', 'postgres']) {
      const second = spawnServer({ DATABASE_URL: a.databaseUrl, PUBSUB: pubsub, MIGRATE_ON_START: 'false' });
      expect(await second.exited).toBe(1);
      const out = second.output().trim();
      expect(out.split('\n')).toHaveLength(1);
      expect(out).toMatch(/^cannot start: .*PUBSUB=postgres on every instance/);
    }
    // The first instance is unharmed.
    expect((await a.anon.request<{ __typename: string }>('{ __typename }')).__typename).toBe('Query');
  });

  it('reports not ready while it lost its lock to an instance that excludes it, and ready once it has it back', async () => {
    const admin = new pg.Client({ connectionString: a.databaseUrl });
    await admin.connect();
    const ready = async () => (await fetch(`${a.url}/health/ready`)).status;
    try {
      expect(await ready()).toBe(200);
      // The lock's session drops (a terminated backend), and another instance takes the key first.
      // pg_terminate_backend only signals: the backend lets go of the lock when it has exited, a
      // moment later. So the key is tried until it is free (and, should the instance have taken it
      // back first, on a machine slow enough, its session is terminated again).
      const takeKeyFromInstance = async () => {
        for (let round = 0; round < 10; round++) {
          await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'dominoes-instance' AND datname = current_database()`,
          );
          for (let i = 0; i < 50; i++) {
            const { rows } = await admin.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [INSTANCE_KEY]);
            if (rows[0].ok) return true;
            await new Promise((r) => setTimeout(r, 20));
          }
        }
        return false;
      };
      expect(await takeKeyFromInstance()).toBe(true);
      const until = async (status: number) => {
        for (let i = 0; i < 100 && (await ready()) !== status; i++) await new Promise((r) => setTimeout(r, 100));
        expect(await ready()).toBe(status);
      };
      await until(503);
      const body = (await (await fetch(`${a.url}/health/ready`)).json()) as { error: Record<string, { message?: string }> };
      expect(body.error.instance.message).toMatch(/another instance/);
      // The other goes away: this instance takes its lock back at its next try.
      await admin.query('SELECT pg_advisory_unlock($1::bigint)', [INSTANCE_KEY]);
      await until(200);
    } finally {
      await admin.end();
    }
  });

  it('lets another instance start once the first has stopped', async () => {
    await a.server.close();
    aStopped = true;
    const next = await startServer(instanceConfig(a.databaseUrl), { logger: false });
    expect((await new GqlClient(next.url).request<{ __typename: string }>('{ __typename }')).__typename).toBe('Query');
    await next.close();
  });
});

describe('two instances (PUBSUB=postgres): B survives a dropped LISTEN connection', () => {
  let a: TestApp;
  let b: ListeningServer;
  let admin: pg.Client;
  let aListen: number[];
  const listenPids = async () =>
    (
      await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'dominoes-listen'`,
      )
    ).rows.map((r) => r.pid);

  beforeAll(async () => {
    a = await startTestApp({ PUBSUB: 'postgres' });
    admin = new pg.Client({ connectionString: a.databaseUrl });
    await admin.connect();
    aListen = await listenPids();
    // Only LISTEN tells B of A's moves: it caches reads for an hour (only the resync after a
    // reconnect can make it forget) and its feeds never re-check the table on their own, so the
    // bounds below can be generous without another path meeting them.
    b = await startServerChild({
      DATABASE_URL: a.databaseUrl,
      PUBSUB: 'postgres',
      MIGRATE_ON_START: 'false',
      MATCH_CACHE_TTL_MS: '3600000',
      FEED_RECHECK_MS: '0',
    });
  });
  afterAll(async () => {
    b.child.kill('SIGCONT');
    await b.kill('SIGTERM');
    await admin.end();
    await a.close();
  });

  it('sees moves made on A, and after its LISTEN backend is killed serves no stale match and delivers what it missed', async () => {
    const [bListen, ...others] = (await listenPids()).filter((pid) => !aListen.includes(pid));
    expect(aListen).toHaveLength(1);
    expect(others).toEqual([]);
    const p0 = await a.player('n0');
    const p1 = await a.player('n1');
    const { createMatch } = await p0.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    const matchId = createMatch.id;
    await p1.request(M_JOIN, { id: matchId });
    const bySeat = new Map([
      [0, p0],
      [1, p1],
    ]);
    const rnd = lcg(11);
    const moveOnA = async () => humanMove(bySeat.get((await viewOf(p0, matchId)).turn!)!, matchId, rnd);
    const stored = async () =>
      (await admin.query<{ version: number; lastEventSeq: number }>(`SELECT version, "lastEventSeq" FROM "Match" WHERE id = $1`, [matchId])).rows[0];
    const onB = new GqlClient(b.url, p1.token);
    const feed = new Subscriber<{ seq: number }>(b.url, p1.token).subscribe(
      'subscription($id: ID!) { matchEvents(matchId: $id, afterSeq: 0) { seq } }',
      { id: matchId },
      (d) => d.matchEvents as { seq: number },
    );

    // Moves on A reach B, its reads and its subscribers, within a bound.
    for (let i = 0; i < 3; i++) await moveOnA();
    const seen = await stored();
    await eventually(
      () => viewOf(onB, matchId),
      (m) => m.version === seen.version,
      'B serving the match after moves on A',
    );
    await feed.until((r) => r.at(-1)?.seq === seen.lastEventSeq);

    // B frozen, its LISTEN backend killed, A moves on: B hears nothing of these moves.
    b.child.kill('SIGSTOP');
    await admin.query('SELECT pg_terminate_backend($1)', [bListen]);
    await eventually(listenPids, (pids) => !pids.includes(bListen), 'the LISTEN backend gone');
    for (let i = 0; i < 4; i++) await moveOnA();
    const missed = await stored();
    b.child.kill('SIGCONT');

    // B notices, listens again, forgets its cached match and re-reads every open feed.
    await eventually(listenPids, (pids) => pids.filter((p) => !aListen.includes(p)).length === 1, 'B listening again');
    await eventually(
      () => viewOf(onB, matchId),
      (m) => m.version === missed.version,
      'B serving the match after its reconnect',
    );
    await feed.until((r) => r.at(-1)?.seq === missed.lastEventSeq);
    const seqs = feed.received.map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: missed.lastEventSeq }, (_, i) => i + 1));

    // And it is live again.
    await moveOnA();
    const after = await stored();
    await feed.until((r) => r.at(-1)?.seq === after.lastEventSeq);
    await eventually(
      () => viewOf(onB, matchId),
      (m) => m.version === after.version,
      'B serving the match live again',
    );
    await feed.close();
  });
});

describe("two instances (PUBSUB=postgres): a commit that comes back after the other instance's later one", () => {
  let a: TestApp;
  let b: RunningServer;
  beforeAll(async () => {
    a = await startTestApp({ PUBSUB: 'postgres' });
    // B caches reads for an hour: a stale entry would stay until the next signal.
    b = await startServer(instanceConfig(a.databaseUrl, { PUBSUB: 'postgres', MATCH_CACHE_TTL_MS: '3600000' }), { logger: false });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('is not cached over the later version already signalled: B serves the newest match', async () => {
    const p0 = await a.player('late0');
    const p1 = await a.player('late1');
    const { createMatch } = await p0.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    const matchId = createMatch.id;
    await p1.request(M_JOIN, { id: matchId });
    const onA = [p0, p1];
    const onB = onA.map((p) => new GqlClient(b.url, p.token, p.me));
    const rnd = lcg(5);
    const bCache = b.app.get(MatchCache);

    // B commits a move and caches its own commit.
    await humanMove(onB[(await viewOf(p0, matchId)).turn!], matchId, rnd);
    const older = bCache.get(matchId);
    expect(older).toBeDefined();
    // A commits the next one; its signal reaches B and drops B's entry. (Whose turn it is, asked of
    // B, which holds its own commit: A may not have had B's signal yet, and would name the mover before it.)
    await humanMove(onA[(await viewOf(onB[0], matchId)).turn!], matchId, rnd);
    const newest = (await viewOf(p0, matchId)).version;
    expect(newest).toBeGreaterThan(older!.version);
    await eventually(
      async () => bCache.get(matchId)?.version ?? null,
      (v) => v === null,
      "B dropping its entry on A's signal",
      5_000,
    );
    // What the race leaves: B's own, older commit is cached only now, after the signal.
    bCache.set(older!);
    expect((await viewOf(onB[0], matchId)).version).toBe(newest);
  });
});

describe('two instances sweeping the same stranded bot matches', () => {
  let app: TestApp;
  let prisma: PrismaService;
  const sweepers: RunningServer[] = [];
  beforeAll(async () => {
    // The instance that makes the matches loses its bots' wake-ups (as a crashed one would) and
    // does not sweep: every bot turn it hands out stays stranded until another instance sweeps.
    app = await startTestApp({ PUBSUB: 'postgres', SWEEP_INTERVAL_MS: '600000' });
    app.server.app.get(BotsService).committed = () => {};
    prisma = app.server.app.get(PrismaService);
  });
  afterAll(async () => {
    await Promise.all(sweepers.map((s) => s.close()));
    await app.close();
  });

  it('moves each one exactly once, and keeps doing so while the in-process wake-up races the sweeps', async () => {
    const ids: string[] = [];
    const owners = new Map<string, GqlClient>();
    const rnd = lcg(3);
    for (let i = 0; i < 8; i++) {
      const p = await app.player(`owner${i}`);
      const input = { seats: 4, bots: 3, botStrategy: i % 2 ? 'RANDOM' : 'GREEDY', rules: { targetScore: 100 } };
      const { createMatch } = await p.request<{ createMatch: MatchT }>(M_CREATE, { input });
      ids.push(createMatch.id);
      owners.set(createMatch.id, p);
      if (createMatch.turn === 0) await humanMove(p, createMatch.id, rnd);
    }
    expect((await botToMove(prisma, ids)).sort()).toEqual([...ids].sort());

    // Two instances start; both sweep at boot and every 100 ms, three matches a claim, no grace.
    const env = { PUBSUB: 'postgres', SWEEP_INTERVAL_MS: '100', SWEEP_BATCH_SIZE: '3', SWEEP_GRACE_MS: '0' };
    sweepers.push(...(await Promise.all([0, 1].map(() => startServer(instanceConfig(app.databaseUrl, env), { logger: false })))));
    await eventually(
      () => botToMove(prisma, ids),
      (left) => left.length === 0,
      'matches with a bot to move',
      30_000,
    );
    for (const id of ids) {
      await expectReplayable(prisma, id);
      expect(await expectEveryBotMoveChosenOnce(prisma, id)).toBeGreaterThan(0);
    }

    // Humans play on through both instances: each commit wakes its bots there while both sweepers
    // may claim the same turn at once; the compare-and-set lets one move apply.
    for (let round = 0; round < 4; round++) {
      await Promise.all(
        ids.map(async (id, i) => {
          const m = await viewOf(owners.get(id)!, id);
          if (m.status !== 'IN_PROGRESS') return;
          const via = new GqlClient(sweepers[(i + round) % 2].url, owners.get(id)!.token, owners.get(id)!.me);
          await humanMove(via, id, rnd);
          await eventually(
            () => botToMove(prisma, [id]),
            (left) => left.length === 0,
            'bots handing back the turn',
          );
        }),
      );
    }
    for (const id of ids) {
      await expectReplayable(prisma, id);
      await expectEveryBotMoveChosenOnce(prisma, id);
    }
  });
});

describe('a sweeper whose cached match missed the commit that handed a bot the turn', () => {
  let maker: TestApp;
  let sweeper: RunningServer;
  beforeAll(async () => {
    // The instance where the human plays loses its bots' wake-ups and never sweeps; the other
    // sweeps every 100 ms and keeps what it caches far longer than the test runs.
    // The bot's turn it writes is due 5 s after the commit (SWEEP_GRACE_MS): time for the test to
    // see it still waiting, however loaded the machine.
    maker = await startTestApp({ PUBSUB: 'postgres', SWEEP_INTERVAL_MS: '600000', SWEEP_GRACE_MS: '5000' });
    maker.server.app.get(BotsService).committed = () => {};
    const env = { PUBSUB: 'postgres', SWEEP_INTERVAL_MS: '100', SWEEP_GRACE_MS: '0', SWEEP_LEASE_MS: '60000', MATCH_CACHE_TTL_MS: '600000' };
    sweeper = await startServer(instanceConfig(maker.databaseUrl, env), { logger: false });
  });
  afterAll(async () => {
    await sweeper?.close();
    await maker?.close();
  });

  it("moves the bot on the database's row when it claims the turn, not a lease later", async () => {
    const prisma = maker.server.app.get(PrismaService);
    const p = await maker.player('away');
    const { createMatch } = await p.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, bots: 1 } });
    const id = createMatch.id;
    // The sweeper caches the match at the human's turn (after moving the bot, if the bot led).
    const onSweeper = new GqlClient(sweeper.url, p.token, p.me);
    await eventually(
      () => viewOf(onSweeper, id),
      (m) => m.turn === m.mySeat,
      "the human's turn, cached on the sweeper",
    );

    // The human's move hands the bot its turn; its signal is lost, so the sweeper's copy is stale.
    const bus = maker.server.app.get<EventBus>(EVENT_BUS);
    const lost = jest.spyOn(bus, 'publish').mockImplementation(async () => {});
    try {
      // A draw keeps the turn (the human may hold nothing that matches the bot's lead): move until it passes.
      const rnd = lcg(5);
      for (let i = 0; i < 30 && (await botToMove(prisma, [id])).length === 0; i++) await humanMove(p, id, rnd);
      expect(await botToMove(prisma, [id])).toEqual([id]);
      expect((await viewOf(onSweeper, id)).turn).toBe((await viewOf(onSweeper, id)).mySeat); // still stale
      await eventually(
        () => botToMove(prisma, [id]),
        (left) => left.length === 0,
        'the bot moved by the sweeper',
      );
    } finally {
      lost.mockRestore();
    }
    await expectReplayable(prisma, id);
  });
});
