/**
 * `npm run bench:moves`: closed-loop move throughput and latency over HTTP, against the cost of
 * the bare database work a move needs, measured in the same run on the same database.
 *
 * Service: C clients, each driving its own 2-player match — read the mover's legalMoves, send
 * playTile/drawTile — starting a new match when one ends. Baseline: C pg connections, each
 * running a transaction of the same shape (compare-and-set the match row with a real-sized
 * snapshot, insert a move, update the round). Printed: moves/s, p50/p99 of the command (and of
 * the round-ending commands alone, which write the most), SQL statements per move, and service ÷
 * baseline. Baseline runs before and after the service phase and is averaged, so load from
 * elsewhere on the machine hits both sides alike.
 *
 * The stack's floor (bench/support/floor.ts): as many clients drive a minimal authenticated
 * mutation doing one INSERT through the same server, in slices taking turns with the service's
 * (runServiceAndFloor), each after a minimal authenticated read as each move follows a view
 * read. `floor ratio` = move mutations/s ÷
 * floor mutations/s; `command ÷ floor latency` compares one command with one floor mutation alone.
 * Tails (bench/support/tails.ts): the server's event-loop delay, pool waits and GC during the
 * service phase, from its GET /metrics, and its CPU time per move and per floor iteration
 * (`CPU floor ratio` = floor ÷ move CPU: steadier than the rates on a shared machine), and where
 * the database runs on this machine, its backends' CPU per move and per floor iteration
 * (bench/support/pg-cpu.ts). The last line is `BENCH_RESULT {json}` (npm run bench).
 */
import pg from 'pg';
import { REGISTER } from './support/operations.js';
import { createFloorTable, startFloor, type FloorPhase } from './support/floor.js';
import { benchDatabase, fmt, gql, metrics, percentile, startServerProcess } from './support/harness.js';
import { report } from './support/result.js';
import { backendsCpu, spentBetween, type BackendsCpu } from './support/pg-cpu.js';
import { describeTails, mergeTails, tailsEnd, tailsStart, type Tails } from './support/tails.js';

const SERVICE_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/**
 * Warm-up before each measured phase, moves and floor alike. A server answers a move with far
 * more distinct code than a floor mutation (the engine, the commit, round ends every few dozen
 * moves), and V8 keeps optimizing it for about 20 s of moves: with 1 s of warm-up the moves were
 * measured half-compiled (server CPU per move fell from ~5,400 to ~2,000 µs over 20 s of moves at
 * 2 clients, its compiler threads busy throughout) while the floor, measured after them, ran on a
 * stack the moves had already warmed. A deployed server runs for hours: steady state is what counts.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 20);
/** The measured phase runs as this many turns of a move slice and a floor slice (runServiceAndFloor). */
const SLICES = Number(process.env.BENCH_SLICES ?? 4);
const BASELINE_SECONDS = SERVICE_SECONDS / 2;
const CONCURRENCY = (process.env.BENCH_CLIENTS ?? '1,8').split(',').map(Number);

const CREATE = 'mutation { createMatch(input: { seats: 2 }) { id } }';
const JOIN = 'mutation($id: ID!) { joinMatch(matchId: $id) { turn } }';
const MINE = 'query($id: ID!) { match(id: $id) { version legalMoves { tile { high low } end } canDraw currentRound { number } } }';
// The command answers with the round it left the match in, so the bench can tell round-ending commands apart.
const PLAY = 'mutation($i: PlayTileInput!) { playTile(input: $i) { status turn currentRound { number } } }';
const DRAW = 'mutation($i: TurnInput!) { drawTile(input: $i) { status turn currentRound { number } } }';

interface View {
  version: number;
  legalMoves: { tile: unknown; end: string | null }[];
  canDraw: boolean;
  currentRound: { number: number };
}
interface Outcome {
  status: string;
  turn: number;
  currentRound: { number: number };
}

interface Phase {
  moves: number;
  seconds: number;
  latencies: number[];
  /** the commands that ended a round (or the match): they write the most */
  roundEnds: number[];
}

/** One client's own 2-player match, played seat after seat; a new match when one ends. */
async function serviceClient(url: string, id: number): Promise<(until: number, phase: Phase) => Promise<void>> {
  const tokens = await Promise.all(
    [0, 1].map(async (i) => (await gql<{ registerPlayer: { token: string } }>(url, REGISTER, { n: `bench${id}-${i}` })).registerPlayer.token),
  );
  let matchId = '';
  let turn = 0;
  const newMatch = async () => {
    matchId = (await gql<{ createMatch: { id: string } }>(url, CREATE, {}, tokens[0])).createMatch.id;
    turn = (await gql<{ joinMatch: { turn: number } }>(url, JOIN, { id: matchId }, tokens[1])).joinMatch.turn;
  };
  await newMatch();
  let pick = id * 7919;
  return async (until, phase) => {
    while (Date.now() < until) {
      const token = tokens[turn];
      const view = (await gql<{ match: View }>(url, MINE, { id: matchId }, token)).match;
      const t0 = performance.now();
      let res: Outcome;
      if (view.legalMoves.length > 0) {
        const mv = view.legalMoves[pick++ % view.legalMoves.length];
        res = (await gql<{ playTile: Outcome }>(url, PLAY, { i: { matchId, tile: mv.tile, end: mv.end, expectedVersion: view.version } }, token))
          .playTile;
      } else {
        res = (await gql<{ drawTile: Outcome }>(url, DRAW, { i: { matchId, expectedVersion: view.version } }, token)).drawTile;
      }
      const ms = performance.now() - t0;
      phase.latencies.push(ms);
      if (res.status !== 'IN_PROGRESS' || res.currentRound.number !== view.currentRound.number) phase.roundEnds.push(ms);
      phase.moves++;
      if (res.status !== 'IN_PROGRESS') await newMatch();
      else turn = res.turn;
    }
  };
}

/** A slice of the service or of the floor: its time, the server's tails, SQL statements and PostgreSQL's CPU over it. */
interface Slice {
  seconds: number;
  tails: Tails;
  sql: number;
  /** CPU seconds of the database's backends (null where they cannot be read: see pg-cpu.ts) */
  pgSeconds: number | null;
}

/** Runs `work` for `seconds` with the server's metrics and the backends' CPU read right before and after it. */
async function measured(url: string, backends: BackendsCpu, seconds: number, work: (until: number) => Promise<void>): Promise<Slice> {
  const sqlBefore = (await metrics(url)).sqlStatements;
  const pgBefore = await backends.read();
  const started = await tailsStart(url);
  const t0 = performance.now();
  await work(Date.now() + seconds * 1000);
  const elapsed = (performance.now() - t0) / 1000;
  const tails = await tailsEnd(url, started);
  const pgSeconds = spentBetween(pgBefore, await backends.read());
  return { seconds: elapsed, tails, sql: (await metrics(url)).sqlStatements - sqlBefore, pgSeconds };
}

/** The backends' CPU over a side's slices, or null when any slice could not read it. */
function pgSecondsOf(slices: readonly Slice[]): number | null {
  return slices.every((x) => x.pgSeconds !== null) ? slices.reduce((a, x) => a + x.pgSeconds!, 0) : null;
}

/**
 * The moves and the floor, both warmed up (WARMUP_SECONDS), then measured in SLICES turns of
 * move slice and floor slice: a shared machine's speed drifts over a run (raw pg moved 30 % from
 * one minute to the next here), and interleaving lets the drift hit both sides alike.
 */
async function runServiceAndFloor(
  url: string,
  backends: BackendsCpu,
  clients: number,
): Promise<{
  service: Phase & { sqlPerMove: number; tails: Tails; pgSeconds: number | null };
  floor: FloorPhase & { pgSeconds: number | null };
  floorTails: Tails;
}> {
  const players = await Promise.all(Array.from({ length: clients }, (_, i) => serviceClient(url, i)));
  const floorFleet = await startFloor(url, clients, clients);
  const warm: Phase = { moves: 0, seconds: 0, latencies: [], roundEnds: [] };
  await Promise.all(players.map((play) => play(Date.now() + WARMUP_SECONDS * 1000, warm)));
  await floorFleet.run(Date.now() + WARMUP_SECONDS * 1000, { mutations: 0, seconds: 0, latencies: [] });

  const phase: Phase = { moves: 0, seconds: 0, latencies: [], roundEnds: [] };
  const floor: FloorPhase = { mutations: 0, seconds: 0, latencies: [] };
  const serviceSlices: Slice[] = [];
  const floorSlices: Slice[] = [];
  for (let i = 0; i < SLICES; i++) {
    serviceSlices.push(
      await measured(url, backends, SERVICE_SECONDS / SLICES, (until) => Promise.all(players.map((play) => play(until, phase))).then(() => {})),
    );
    floorSlices.push(await measured(url, backends, SERVICE_SECONDS / SLICES, (until) => floorFleet.run(until, floor)));
  }
  phase.seconds = serviceSlices.reduce((a, x) => a + x.seconds, 0);
  floor.seconds = floorSlices.reduce((a, x) => a + x.seconds, 0);
  phase.latencies.sort((a, b) => a - b);
  phase.roundEnds.sort((a, b) => a - b);
  floor.latencies.sort((a, b) => a - b);
  const sql = serviceSlices.reduce((a, x) => a + x.sql, 0);
  return {
    service: { ...phase, sqlPerMove: sql / phase.moves, tails: mergeTails(serviceSlices.map((x) => x.tails)), pgSeconds: pgSecondsOf(serviceSlices) },
    floor: { ...floor, pgSeconds: pgSecondsOf(floorSlices) },
    floorTails: mergeTails(floorSlices.map((x) => x.tails)),
  };
}

async function runBaseline(dbUrl: string, clients: number, seconds: number, snapshot: string): Promise<Phase> {
  const setup = new pg.Client({ connectionString: dbUrl });
  await setup.connect();
  await setup.query(`
    CREATE TABLE IF NOT EXISTS bench_match (id int PRIMARY KEY, version int NOT NULL, state jsonb);
    CREATE TABLE IF NOT EXISTS bench_round (match_id int, number int, snapshot jsonb, PRIMARY KEY (match_id, number));
    CREATE TABLE IF NOT EXISTS bench_move (match_id int, seq int, seat int, type text, tile_high int, tile_low int, "end" text, points int, count int, PRIMARY KEY (match_id, seq));
    TRUNCATE bench_match, bench_round, bench_move;`);
  for (let i = 0; i < clients; i++) {
    await setup.query('INSERT INTO bench_match VALUES ($1, 0, $2)', [i, snapshot]);
    await setup.query('INSERT INTO bench_round VALUES ($1, 1, $2)', [i, snapshot]);
  }
  await setup.end();
  const phase: Phase = { moves: 0, seconds, latencies: [], roundEnds: [] };
  const until = Date.now() + seconds * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, id) => {
      const c = new pg.Client({ connectionString: dbUrl });
      await c.connect();
      let version = 0;
      while (Date.now() < until) {
        const t0 = performance.now();
        await c.query('BEGIN');
        const r = await c.query<{ version: number }>(
          'UPDATE bench_match SET version = version + 1, state = $3 WHERE id = $1 AND version = $2 RETURNING version',
          [id, version, snapshot],
        );
        version = r.rows[0].version;
        await c.query('INSERT INTO bench_move VALUES ($1, $2, 0, $3, 6, 4, $4, 10, 10)', [id, version, 'PLAY', 'LEFT']);
        await c.query('UPDATE bench_round SET snapshot = $2 WHERE match_id = $1 AND number = 1', [id, snapshot]);
        await c.query('COMMIT');
        phase.latencies.push(performance.now() - t0);
        phase.moves++;
      }
      await c.end();
    }),
  );
  phase.seconds = (performance.now() - start) / 1000;
  phase.latencies.sort((a, b) => a - b);
  return phase;
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  await createFloorTable(db.url);
  const server = await startServerProcess(db.url, { BENCH_FLOOR: 'true' });
  const backends = await backendsCpu(db.url);
  const figures: Record<string, number> = {};
  try {
    // A real snapshot, so the baseline writes as many bytes as the service does.
    const tokens = await Promise.all(
      [0, 1].map(async (i) => (await gql<{ registerPlayer: { token: string } }>(server.url, REGISTER, { n: `probe${i}` })).registerPlayer.token),
    );
    const id = (await gql<{ createMatch: { id: string } }>(server.url, CREATE, {}, tokens[0])).createMatch.id;
    await gql(server.url, JOIN, { id }, tokens[1]);
    const probe = new pg.Client({ connectionString: db.url });
    await probe.connect();
    const snapshot = JSON.stringify((await probe.query<{ state: unknown }>('SELECT state FROM "Match" WHERE id = $1', [id])).rows[0].state);
    await probe.end();

    console.log(
      `bench:moves — ${SERVICE_SECONDS}s per service phase, snapshot ${snapshot.length} bytes, ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}`,
    );
    for (const clients of CONCURRENCY) {
      const before = await runBaseline(db.url, clients, BASELINE_SECONDS, snapshot);
      const { service, floor, floorTails } = await runServiceAndFloor(server.url, backends, clients);
      // The server's CPU per iteration: with the server the busiest process, what its figures
      // would be if nothing else ran on the machine, and much steadier than the rates on a shared one.
      const cpuPerMoveUs = (service.tails.cpuSeconds / service.moves) * 1e6;
      const cpuPerFloorUs = (floorTails.cpuSeconds / floor.mutations) * 1e6;
      const systemPerMoveUs = (service.tails.cpuSystemSeconds / service.moves) * 1e6;
      const systemPerFloorUs = (floorTails.cpuSystemSeconds / floor.mutations) * 1e6;
      const after = await runBaseline(db.url, clients, BASELINE_SECONDS, snapshot);
      const baseRate = (before.moves / before.seconds + after.moves / after.seconds) / 2;
      const rate = service.moves / service.seconds;
      const base = [...before.latencies, ...after.latencies].sort((a, b) => a - b);
      const floorRate = floor.mutations / floor.seconds;
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const p99 = percentile(service.latencies, 99);
      console.log(
        `clients=${clients}  service: ${fmt(rate)} moves/s, command p50 ${fmt(percentile(service.latencies, 50), 2)} ms, p99 ${fmt(p99, 2)} ms ` +
          `(the ${service.roundEnds.length} round-ending: p50 ${fmt(percentile(service.roundEnds, 50), 2)} ms, p99 ${fmt(percentile(service.roundEnds, 99), 2)} ms), ` +
          `${fmt(service.sqlPerMove, 1)} SQL statements per move (view + command)  |  raw pg: ${fmt(baseRate)} tx/s, p50 ${fmt(percentile(base, 50), 2)} ms, p99 ${fmt(percentile(base, 99), 2)} ms  |  ratio ${fmt(rate / baseRate, 3)}`,
      );
      console.log(
        `  floor: ${fmt(floorRate)} mutations/s, p50 ${fmt(percentile(floor.latencies, 50), 2)} ms, p99 ${fmt(percentile(floor.latencies, 99), 2)} ms  |  ` +
          `floor ratio ${fmt(rate / floorRate, 3)} (raw-pg ratio ${fmt(rate / baseRate, 3)}), command ÷ floor latency ${fmt(mean(floor.latencies) / mean(service.latencies), 3)}`,
      );
      console.log(
        `  server CPU: ${fmt(cpuPerMoveUs, 0)} µs per move iteration (view + command; ${fmt(systemPerMoveUs, 0)} in the kernel), ` +
          `${fmt(cpuPerFloorUs, 0)} µs per floor iteration (${fmt(systemPerFloorUs, 0)} in the kernel)  |  ` +
          `CPU floor ratio ${fmt(cpuPerFloorUs / cpuPerMoveUs, 3)} (floor ÷ move CPU: the floor ratio of a server alone on its core)`,
      );
      if (service.pgSeconds !== null && floor.pgSeconds !== null) {
        const pgPerMoveUs = (service.pgSeconds / service.moves) * 1e6;
        const pgPerFloorUs = (floor.pgSeconds / floor.mutations) * 1e6;
        console.log(
          `  PostgreSQL CPU (the backends serving this database): ${fmt(pgPerMoveUs, 0)} µs per move iteration, ${fmt(pgPerFloorUs, 0)} µs per floor iteration  |  ` +
            `server + PostgreSQL floor ratio ${fmt((cpuPerFloorUs + pgPerFloorUs) / (cpuPerMoveUs + pgPerMoveUs), 3)}`,
        );
        Object.assign(figures, { [`pgCpuPerMoveUs${clients}`]: pgPerMoveUs, [`pgCpuPerFloorUs${clients}`]: pgPerFloorUs });
      }
      console.log(`  ${describeTails(service.tails)}`);
      Object.assign(figures, {
        [`movesPerSec${clients}`]: rate,
        [`p99Ms${clients}`]: p99,
        [`roundEndP99Ms${clients}`]: percentile(service.roundEnds, 99),
        [`rawPgRatio${clients}`]: rate / baseRate,
        [`floorRatio${clients}`]: rate / floorRate,
        [`commandFloorLatencyRatio${clients}`]: mean(floor.latencies) / mean(service.latencies),
        [`serverCpuPerMoveUs${clients}`]: cpuPerMoveUs,
        [`cpuFloorRatio${clients}`]: cpuPerFloorUs / cpuPerMoveUs,
        [`eventLoopP99Ms${clients}`]: service.tails.eventLoopP99Ms,
        [`poolWaitMeanMs${clients}`]: service.tails.poolWaitMeanMs,
        [`gcPercent${clients}`]: service.tails.gcMs / 10 / service.tails.seconds,
      });
    }
    report(figures);
  } finally {
    await backends.close();
    await server.stop();
    await db.stop();
  }
}

await main();
