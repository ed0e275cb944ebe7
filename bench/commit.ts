/**
 * `npm run bench:commit`: PostgreSQL's side of a move alone, against the floor's INSERT, and what
 * leaner data models would save it. No server: C pg connections per shape, each on a match row of
 * its own, run one statement closed loop, prepared as the server runs it:
 *
 * - `floor`: the floor mutation's INSERT of one move-shaped row (src/bench-floor);
 * - `move`: a plain move's commit as the server builds it (commitStatement, with the webhook
 *   outbox's CTE as the server registers it), carrying a real mid-round state;
 * - `move without its state`: the same writing a NULL state: the most a smaller stored state saves;
 * - `move without the outbox`: the same without the webhook outbox's CTE;
 * - `bare`: the compare-and-set of the version and the Move row alone: the least a move can write
 *   and still let exactly one of two concurrent commands win.
 *
 * The shapes take turns in BENCH_SLICES slices each, so a shared machine's drift hits them alike.
 * Each shape has its own connections and rows, as each kind of statement would in a server (shapes
 * sharing rows and connections here made one of them cost twice as much). Printed per shape:
 * statements/s and the backends' CPU per statement (bench/support/pg-cpu.ts), each against the
 * floor's. The last line is `BENCH_RESULT {json}`.
 */
import pg from 'pg';
import { BENCH_FLOOR_TABLE, floorInsert } from '../src/bench-floor/bench-floor.resolver.js';
import { PreparedStatements } from '../src/database/prepared-statements.js';
import { apply, canDraw, legalMoves, newMatch, resolveRules, type MatchState } from '../src/domain/index.js';
import { commitStatement } from '../src/matches/commit-statement.js';
import { CommitContributions } from '../src/matches/commit-contributions.js';
import type { Commit, StoredEvent } from '../src/matches/loaded-match.js';
import { WebhookOutbox } from '../src/webhooks/webhook-outbox.js';
import { benchDatabase, fmt } from './support/harness.js';
import { backendsCpu, spentBetween } from './support/pg-cpu.js';
import { report } from './support/result.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const SLICES = Number(process.env.BENCH_SLICES ?? 4);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const PLAYER = '00000000-0000-4000-8000-000000000001';

/** A 2-player round played halfway by the engine: the state a mid-round move writes. */
function midRoundState(): MatchState {
  const deal = { matchId: 'bench-commit', clientSeeds: ['a', 'b'], anchor: { round: 100, secret: '5a'.repeat(32) } };
  let state = newMatch({ seats: 2, partnerships: false, rules: resolveRules(null), deal }).state;
  for (let k = 0; k < 12; k++) {
    const seat = state.round.turn;
    const [play] = legalMoves(state, seat);
    if (!play && !canDraw(state, seat)) break;
    const res = apply(state, play ? { type: 'PLAY', seat, ...play } : { type: 'DRAW', seat });
    if (!res.ok || res.state.status !== 'IN_PROGRESS') break;
    state = res.state;
  }
  return state;
}

/** One connection's match row and where its writes stand. */
interface Client {
  client: pg.Client;
  matchId: string;
  /** the match row's version (the move shapes move it on) */
  version: number;
  /** the floor rows this connection has written */
  floorRows: number;
  prepared: PreparedStatements;
}

interface Shape {
  name: string;
  /** its figures' prefix in BENCH_RESULT */
  key: string;
  /** this client's next statement of the shape; `wrote` moves its counters on once it holds */
  statement(x: Client): { text: string; values: unknown[] };
  wrote(x: Client): void;
}

function shapes(state: MatchState): Shape[] {
  const contributions = new CommitContributions();
  new WebhookOutbox(contributions);
  const moveCommit =
    (withState: boolean, withEvents: boolean, withOutbox: boolean) =>
    ({ matchId, version }: Client) => {
      const seq = version + 1;
      const c: Commit = {
        matchId,
        expectedVersion: version,
        lastEventSeq: version,
        status: 'IN_PROGRESS',
        state: withState ? state : null,
        winnerTeam: null,
        moves: [{ seq, round: 1, seat: seq % 2, type: 'PLAY', tile: { high: 6, low: 4 }, end: 'LEFT', points: 10, count: 10 }],
        clientMoveId: null,
        playerId: PLAYER,
        events: withEvents ? [{ type: 'TILE_PLAYED', moveSeq: seq }] : [],
        roundsFinished: [],
        roundsStarted: [],
        turnTo: PLAYER,
      };
      const events: StoredEvent[] = c.events.map((e, i) => ({ ...e, seq: c.lastEventSeq + i + 1 }));
      return commitStatement(c, events, 0, (guard) => (withOutbox ? contributions.ctes(c, [PLAYER, PLAYER], guard) : []));
    };
  const moved = (x: Client) => void x.version++;
  // The floor first: every other shape is measured against it.
  return [
    { name: 'floor', key: 'floor', statement: (x) => floorInsert(x.matchId, x.floorRows + 1, PLAYER), wrote: (x) => void x.floorRows++ },
    { name: 'move', key: 'move', statement: moveCommit(true, true, true), wrote: moved },
    { name: 'move without its state', key: 'moveNoState', statement: moveCommit(false, true, true), wrote: moved },
    { name: 'move without the outbox', key: 'moveNoOutbox', statement: moveCommit(true, true, false), wrote: moved },
    { name: 'bare: version and Move row', key: 'bare', statement: moveCommit(false, false, false), wrote: moved },
  ];
}

/** `count` match rows at version 0 with the state, as started matches. */
async function seed(url: string, state: MatchState, count: number): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(BENCH_FLOOR_TABLE);
  await c.query(`INSERT INTO "Player" ("id", "name", "tokenHash") VALUES ($1, 'bench', 'bench') ON CONFLICT DO NOTHING`, [PLAYER]);
  const { rows } = await c.query<{ id: string }>(
    `INSERT INTO "Match" ("id", "status", "seatCount", "partnerships", "rules", "state", "turn", "createdById", "updatedAt", "chainSecret", "dealCommitment", "startedAt")
     SELECT gen_random_uuid(), 'IN_PROGRESS', 2, false, $1::jsonb, $2::json, 0, $3, now(), 'bench', 'bench', now() FROM generate_series(1, $4) RETURNING "id"`,
    [JSON.stringify(state.config.rules), JSON.stringify(state), PLAYER, count],
  );
  await c.end();
  return rows.map((r) => r.id);
}

/** One shape's connections, and what its measured slices add up to. */
interface Lane {
  shape: Shape;
  connections: Client[];
  statements: number;
  seconds: number;
  /** the backends' CPU seconds, or null where they cannot be read (see pg-cpu.ts) */
  pgSeconds: number | null;
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  const state = midRoundState();
  // Each shape has its own connections and match rows, as each kind of statement would in a
  // server: one shape's writes never leave another's rows or plans in a state it did not make.
  const lanes: Lane[] = [];
  for (const shape of shapes(state)) {
    const ids = await seed(db.url, state, CLIENTS);
    const connections = await Promise.all(
      ids.map(async (matchId) => {
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        return { client, matchId, version: 0, floorRows: 0, prepared: new PreparedStatements() };
      }),
    );
    lanes.push({ shape, connections, statements: 0, seconds: 0, pgSeconds: 0 });
  }
  const backends = await backendsCpu(db.url);
  try {
    console.log(
      `bench:commit — ${CLIENTS} connections, ${SECONDS}s per shape in ${SLICES} slices, state ${JSON.stringify(state).length} bytes, ` +
        `${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}`,
    );
    /** Runs a lane for `seconds`; `measure` adds the slice to its figures (not while warming up). */
    const run = async ({ shape, connections }: Lane, seconds: number, measure: Lane | null) => {
      const before = await backends.read();
      const until = Date.now() + seconds * 1000;
      const t0 = performance.now();
      let n = 0;
      await Promise.all(
        connections.map(async (x) => {
          while (Date.now() < until) {
            const { rows } = await x.client.query(x.prepared.query(shape.statement(x)));
            if (rows.length !== 1) throw new Error(`${shape.name}: wrote nothing (match version ${x.version})`);
            shape.wrote(x);
            n++;
          }
        }),
      );
      if (!measure) return;
      measure.seconds += (performance.now() - t0) / 1000;
      measure.statements += n;
      const spent = spentBetween(before, await backends.read());
      measure.pgSeconds = spent === null || measure.pgSeconds === null ? null : measure.pgSeconds + spent;
    };
    for (const lane of lanes) await run(lane, 2, null); // prepares every connection's statements and warms the caches
    for (let i = 0; i < SLICES; i++) for (const lane of lanes) await run(lane, SECONDS / SLICES, lane);

    const [floor] = lanes;
    const rate = (t: Lane) => t.statements / t.seconds;
    const cpuUs = (t: Lane) => (t.pgSeconds === null ? NaN : (t.pgSeconds / t.statements) * 1e6);
    const figures: Record<string, number> = {};
    for (const t of lanes) {
      const { shape } = t;
      console.log(
        `${shape.name.padEnd(28)} ${fmt(rate(t)).padStart(8)} statements/s (${fmt(rate(t) / rate(floor), 3)} of the floor's)  |  ` +
          `PostgreSQL CPU ${fmt(cpuUs(t), 0).padStart(5)} µs per statement (${fmt(cpuUs(t) / cpuUs(floor), 2)}× the floor's)`,
      );
      figures[`${shape.key}PerSec`] = rate(t);
      figures[`${shape.key}PgCpuUs`] = cpuUs(t);
      if (t !== floor) figures[`${shape.key}PgCpuRatio`] = cpuUs(t) / cpuUs(floor);
    }
    report(figures);
  } finally {
    await backends.close();
    await Promise.all(lanes.flatMap((l) => l.connections).map((x) => x.client.end()));
    await db.stop();
  }
}

await main();
