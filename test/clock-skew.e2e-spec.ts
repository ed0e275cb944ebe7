import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startTestApp, type TestApp } from './support/app.js';
import { clockedDuel, clockedView, moveNow, sleep } from './support/clocks.js';
import { GqlClient } from './support/gql.js';
import { startServerChild, type ListeningServer } from './support/server-process.js';

const SKEW_MS = 60_000;

/**
 * The game's time is the database's (DatabaseClock): an instance whose system clock runs a minute
 * ahead neither times a player out early when its sweeper claims their clock, nor gives them a
 * minute more when it commits the move that starts their turn.
 */
describe('two instances, one with its system clock a minute ahead', () => {
  let a: TestApp;
  let b: ListeningServer;
  beforeAll(async () => {
    // A sweeps at boot only: the clocks' due work is left to B's sweeper, every 100 ms.
    a = await startTestApp({ PUBSUB: 'postgres', CLOCK_MIN_SECONDS: '1', SWEEP_INTERVAL_MS: '600000' });
    b = await startServerChild({
      DATABASE_URL: a.databaseUrl,
      PUBSUB: 'postgres',
      MIGRATE_ON_START: 'false',
      CLOCK_MIN_SECONDS: '1',
      SWEEP_INTERVAL_MS: '100',
      NODE_OPTIONS: `--import ${pathToFileURL(join(process.cwd(), 'test/support/skewed-clock.mjs')).href}`,
      SKEWED_CLOCK_MS: String(SKEW_MS),
    });
  });
  afterAll(async () => {
    await b.kill('SIGTERM');
    await a.close();
  });

  it("its sweeper times nobody out before the deadline, and its commits write the deadline a turn's length ahead", async () => {
    const [ann, bob] = [await a.player('ann'), await a.player('bob')];
    const id = await clockedDuel(ann, bob, { kind: 'PER_MOVE', moveSeconds: 30 });
    const start = await clockedView(ann, id);
    const mover = start.turn === 0 ? ann : bob;
    // Twenty of B's sweeps: to a clock a minute ahead, this turn's deadline (30 s away) has passed.
    await sleep(2_000);
    const after = await clockedView(ann, id);
    expect({ status: after.status, version: after.version, timeouts: after.seats.map((s) => s.timeouts) }).toEqual({
      status: 'IN_PROGRESS',
      version: start.version,
      timeouts: [0, 0],
    });

    // A move committed on B starts the next turn: its deadline is 30 s from now, not 90.
    const onB = new GqlClient(b.url, mover.token);
    const mine = await clockedView(onB, id);
    await moveNow(onB, mine);
    // Read on B, which holds its own commit: A's cached view lags B's commit by the signal's latency.
    const next = await clockedView(onB, id);
    expect(next.version).toBeGreaterThan(start.version);
    const aheadMs = Date.parse(next.deadline!) - Date.now();
    expect(aheadMs).toBeGreaterThan(20_000);
    // Up to a second over: B estimates the database's clock from a round trip, which load can stretch.
    expect(aheadMs).toBeLessThanOrEqual(31_000);
  });
});
