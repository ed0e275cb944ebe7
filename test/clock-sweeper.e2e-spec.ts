import { startServer, type RunningServer } from '../src/bootstrap.js';
import { PrismaService } from '../src/database/prisma.service.js';
import { dropTestDatabase } from './setup/test-database.js';
import { instanceConfig, startTestApp, type TestApp } from './support/app.js';
import { clockedDuel, clockedView, expectForfeitReplayable, moveNow, sleep, storedEvents, timeoutsOf } from './support/clocks.js';
import { eventually } from './support/eventually.js';
import { lcg } from './support/driver.js';
import { GqlError, type GqlClient } from './support/gql.js';

/** Another instance on a test app's database. */
/** An instance of these suites: the budgets their drivers would exceed off, clocks of a second allowed. */
const sweeperConfig = (databaseUrl: string, env: Record<string, string>) =>
  instanceConfig(databaseUrl, {
    RATE_LIMIT_HTTP_ADDRESS: 'off',
    RATE_LIMIT_HTTP_PLAYER: 'off',
    RATE_LIMIT_MOVES: 'off',
    CLOCK_MIN_SECONDS: '1',
    ...env,
  });

const finished = (prisma: PrismaService, ids: string[]) =>
  eventually(
    async () => (await prisma.match.findMany({ where: { id: { in: ids }, status: { not: 'FINISHED' } }, select: { id: true } })).length,
    (left) => left === 0,
    'matches still in progress',
  );

describe('a player moving at the deadline while the sweeper times the turn out', () => {
  let app: TestApp;
  let prisma: PrismaService;
  beforeAll(async () => {
    app = await startTestApp({ CLOCK_MIN_SECONDS: '1', SWEEP_INTERVAL_MS: '50', SWEEP_BATCH_SIZE: '50' });
    prisma = app.server.app.get(PrismaService);
  });
  afterAll(() => app.close());

  it('applies exactly one of them, 200 times out of 200', async () => {
    // A pair of players per trial running at once: no two trials wait on one player's row.
    const pairs = await Promise.all(Array.from({ length: 50 }, (_, i) => Promise.all([app.player(`a${i}`), app.player(`b${i}`)])));
    const rnd = lcg(13);
    const outcomes = { player: 0, sweeper: 0 };
    const trial = async (i: number): Promise<void> => {
      const [a, b] = pairs[i % pairs.length];
      // 3 s turns: a move that reaches a loaded server late still meets this turn's end, never the
      // seat's next turn (the other seat's whole turn lies between).
      const id = await clockedDuel(a, b, { kind: 'PER_MOVE', moveSeconds: 3, forfeitAfter: 0 });
      // The seat to move, as its player sees it (under load the first turn may be over already).
      let mover: GqlClient = a;
      let view = await clockedView(a, id);
      while (view.turn !== view.mySeat) {
        mover = mover === a ? b : a;
        view = await clockedView(mover, id);
      }
      const racing = Math.max(0, ...view.currentRound!.moves.map((m) => m.seq)) + 1; // Move.seq of this turn's first move
      // The move leaves within a sweep interval or two of the deadline, on either side of it.
      const at = new Date(view.deadline!).getTime() + Math.floor(rnd() * 160) - 60;
      await sleep(Math.max(0, at - Date.now()));
      const clientMoveId = `race-${i}`;
      let accepted = true;
      try {
        await moveNow(mover, view, clientMoveId);
      } catch (e) {
        if (!(e instanceof GqlError) || e.code !== 'NOT_YOUR_TURN') throw e;
        accepted = false;
      }
      await a.request('mutation($id: ID!) { resignMatch(matchId: $id) { id } }', { id });
      const events = await storedEvents(prisma, id);
      timeoutsOf(events);
      const move = events.find((e) => e.moveSeq === racing)!;
      const previous = events.findLast((e) => e.moveSeq === racing - 1)?.seq ?? 0;
      const timedOutBefore = events.filter((e) => e.seq > previous && e.seq < move.seq && e.type === 'TIMED_OUT');
      if (accepted) {
        expect(move).toMatchObject({ moveSeat: view.turn, timedOut: false, clientMoveId });
        expect(timedOutBefore).toEqual([]);
        outcomes.player++;
      } else {
        expect(move).toMatchObject({ moveSeat: view.turn, timedOut: true, clientMoveId: null });
        expect(timedOutBefore.map((e) => e.seat)).toEqual([view.turn]);
        expect(events.some((e) => e.clientMoveId === clientMoveId)).toBe(false);
        outcomes.sweeper++;
      }
    };
    for (let wave = 0; wave < 4; wave++) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => trial(wave * 50 + i)));
    }
    expect(outcomes.player + outcomes.sweeper).toBe(200);
    if (process.env.REPORT_FIGURES)
      console.log(`deadline races: the player's move applied ${outcomes.player} times, the timeout ${outcomes.sweeper} times`);
  });
});

describe('two instances sweeping the same due clocks', () => {
  let app: TestApp;
  let prisma: PrismaService;
  const sweepers: RunningServer[] = [];
  beforeAll(async () => {
    // The instance that makes the matches sweeps only at boot: their timeouts are left to the others.
    app = await startTestApp({ PUBSUB: 'postgres', CLOCK_MIN_SECONDS: '1', SWEEP_INTERVAL_MS: '600000' });
    prisma = app.server.app.get(PrismaService);
  });
  afterAll(async () => {
    await Promise.all(sweepers.map((s) => s.close()));
    await app.close();
  });

  it('applies each timeout once', async () => {
    const [a, b] = await Promise.all([app.player('ann'), app.player('bob')]);
    const ids = await Promise.all(Array.from({ length: 12 }, () => clockedDuel(a, b, { kind: 'PER_MOVE', moveSeconds: 1, forfeitAfter: 2 })));
    const first = new Map(await Promise.all(ids.map(async (id) => [id, (await clockedView(a, id)).turn!] as const)));
    const env = { PUBSUB: 'postgres', SWEEP_INTERVAL_MS: '50', SWEEP_BATCH_SIZE: '3' };
    sweepers.push(...(await Promise.all([0, 1].map(() => startServer(sweeperConfig(app.databaseUrl, env), { logger: false })))));
    await finished(prisma, ids);
    for (const id of ids) {
      const x = first.get(id)!;
      // Seat x, the other seat, seat x again (its second in a row forfeits): never one turn twice.
      expect(timeoutsOf(await storedEvents(prisma, id))).toEqual([x, 1 - x, x]);
      await expectForfeitReplayable(prisma, id, x);
    }
  });
});

describe('a restart with deadlines that fell due while no server ran', () => {
  let app: TestApp;
  let restarted: RunningServer | null = null;
  afterAll(async () => {
    await restarted?.close();
    await dropTestDatabase(process.env.TEST_PG_SERVER_URL!, app.databaseUrl);
  });

  it('fires them once a server is up again', async () => {
    app = await startTestApp({ CLOCK_MIN_SECONDS: '1', SWEEP_INTERVAL_MS: '600000' });
    const prisma = app.server.app.get(PrismaService);
    const [a, b] = await Promise.all([app.player('ann'), app.player('bob')]);
    const ids = await Promise.all(Array.from({ length: 5 }, () => clockedDuel(a, b, { kind: 'PER_MOVE', moveSeconds: 1, onTimeout: 'FORFEIT' })));
    const deadlines = await Promise.all(ids.map(async (id) => new Date((await clockedView(a, id)).deadline!).getTime()));
    await sleep(Math.max(...deadlines) - Date.now() + 50);
    // Past every deadline, nothing happened: no timer in memory stands in for the database.
    expect(await prisma.match.count({ where: { id: { in: ids }, status: 'IN_PROGRESS' } })).toBe(ids.length);
    await app.server.close();

    restarted = await startServer(sweeperConfig(app.databaseUrl, { SWEEP_INTERVAL_MS: '50' }), { logger: false });
    const again = restarted.app.get(PrismaService);
    await finished(again, ids);
    for (const id of ids) expect((await storedEvents(again, id)).slice(-2).map((e) => e.type)).toEqual(['TIMED_OUT', 'MATCH_FINISHED']);
  });
});
