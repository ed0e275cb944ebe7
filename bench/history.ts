/**
 * History benchmark (issue 6): seeds 1,000 and then 100,000 finished 2-player matches for 1,000
 * players, and measures over HTTP, against the real server started in-process, the p50/p99 of
 *   a player's first history page · a full match record · player stats · the leaderboard's first page
 * printing each in ms and the ratio p99@100k / p99@1k (targets: p99 ≤ 20 ms at 100k, ratio ≤ 2).
 *
 *   npm run build && node dist/bench/history.js
 *
 * Each size gets its own database, `<name>_1k` and `<name>_100k`, and its own server, and the
 * samples interleave (1k, 100k, 1k, …) so that load from elsewhere on the machine hits both alike.
 * On DATABASE_URL's server (its database name must contain "bench" or "test"; the two databases
 * are created next to it and dropped at the end) or, by default, an embedded PostgreSQL in a temp
 * dir that is removed afterwards. BENCH_SIZES=1000,10000 for a quick look.
 *
 * Matches are played by the engine (greedy bots, targetScore 100); a few hundred distinct games
 * are reused under new ids and new player pairs, so every row keeps its real shape (moves, rounds
 * with their snapshots and results, the final state) while seeding stays within minutes. Stats
 * rows are folded with the same pure function the StatsWriter uses.
 *
 * Last, at the largest size, a count flood (BENCH_FLOOD=0 skips it): FLOODERS clients ask for the
 * count of every match without pause while a player's history page is sampled, on a server that
 * runs one such count at a time (DB_GLOBAL_COUNTS=1, the default) and on one that runs all at once;
 * it prints the page's p99 under each flood as a ratio to its p99 alone, measured in the same run.
 */
import { createHash, randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { finished } from 'node:stream/promises';
import postgres from 'postgres';
import { loadConfig } from '../src/config/config.js';
import { UNLIMITED_ENV } from './support/harness.js';
import { startEmbedded, type RunningDatabase } from '../src/database/database-url.js';
import { applyMigrations } from '../src/database/migrate.js';
import {
  apply,
  chooseBotAction,
  newMatch,
  chainCheckpoints,
  dealCommitment,
  DEAL_CHAIN_LENGTH,
  resolveRules,
  viewFor,
  type DomainEvent,
  type MatchState,
  type MoveRecord,
  type RoundResult,
  type RoundState,
  type Rules,
} from '../src/domain/index.js';
import { addDelta, statsDeltas, type StatsDelta } from '../src/matches/stats/stats-delta.js';
import { report } from './support/result.js';

// Measure the service as it runs in production: graphql-js, for one, adds development-only checks
// to every type test unless NODE_ENV is "production". Set before the server's modules load.
process.env.NODE_ENV ??= 'production';
const { startServer } = await import('../src/bootstrap.js');

const PLAYERS = 1_000;
const TEMPLATES = 400;
const SAMPLES = 1_000;
const WARMUP = 100;
/** The issue's sizes by default. */
const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);

interface Template {
  rules: Rules;
  rulesJson: Escaped;
  chainSecret: string;
  dealCommitment: string;
  /** bytea input text of its chain's checkpoints */
  dealCheckpoints: string;
  state: Escaped; // final MatchState JSON
  winner: number;
  scores: number[];
  rounds: {
    number: number;
    starter: number;
    snapshot: Escaped;
    result: Escaped;
    parsed: { moves: MoveRecord[]; result: RoundResult };
  }[];
  moves: MoveRecord[];
  events: number;
}

/** One complete match between two greedy bots. */
function playTemplate(seed: number, rules: Rules): Template {
  // A fixed chain per template (the bench measures reads, not randomness); the copies share it.
  const chainSecret = createHash('sha256').update(`bench-${seed}`).digest('hex');
  const deal = { matchId: `bench-template-${seed}`, clientSeeds: ['seat-0', 'seat-1'], anchor: { round: DEAL_CHAIN_LENGTH, secret: chainSecret } };
  const start = newMatch({ seats: 2, partnerships: false, rules, deal });
  let state: MatchState = start.state;
  const rounds: Template['rounds'] = [];
  const moves: MoveRecord[] = [];
  let events = 3 + start.events.length; // two joins and the start, then the engine's
  const starters = new Map<number, number>([[1, state.round.starter]]);
  for (let guard = 0; state.status !== 'FINISHED'; guard++) {
    if (guard > 5_000) throw new Error('a bench match did not end');
    const seat = state.round.turn;
    const res = apply(state, chooseBotAction(viewFor(state, seat), 'greedy', seed + guard));
    if (!res.ok) throw new Error(`bot move refused: ${res.violation.code}`);
    events += res.events.length;
    for (const e of res.events as DomainEvent[]) {
      if (e.type === 'TILE_PLAYED' || e.type === 'TILE_DRAWN' || e.type === 'TURN_PASSED') moves.push(e.move);
      if (e.type === 'ROUND_STARTED') starters.set(e.round, e.starter);
      if (e.type === 'ROUND_ENDED') {
        const r: RoundState = e.finalRound;
        rounds.push({
          number: e.round,
          starter: starters.get(e.round) ?? r.starter,
          snapshot: new Escaped(cell(JSON.stringify(r))),
          result: new Escaped(cell(JSON.stringify(e.result))),
          parsed: { moves: [...r.moves], result: e.result },
        });
      }
    }
    state = res.state;
  }
  return {
    rules,
    rulesJson: new Escaped(cell(JSON.stringify(rules))),
    chainSecret,
    dealCommitment: dealCommitment(deal.anchor),
    dealCheckpoints: `\\x${Buffer.from(chainCheckpoints(deal.anchor)).toString('hex')}`,
    state: new Escaped(cell(JSON.stringify(state))),
    winner: state.winner!,
    scores: [...state.scores],
    rounds,
    moves,
    events,
  };
}

/** A full GC between seeding and measuring (the flag is set at run time: `node dist/bench/history.js` as is). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Text already in COPY form: the templates' big JSON documents are escaped once, not per row. */
class Escaped {
  constructor(readonly text: string) {}
}

/** A value in PostgreSQL's COPY text format. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (v instanceof Escaped) return v.text;
  const text = v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean | bigint).toString();
  return text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

const line = (values: unknown[]): string => values.map(cell).join('\t') + '\n';

/** COPY … FROM STDIN: the bulk path PostgreSQL offers (several times faster than INSERTs). */
async function copyInto(sql: postgres.Sql, table: string, cols: string[], lines: string[]): Promise<void> {
  if (lines.length === 0) return;
  const stream = await sql.unsafe(`COPY "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) FROM STDIN`).writable();
  for (let i = 0; i < lines.length; i += 2_000) {
    if (!stream.write(lines.slice(i, i + 2_000).join(''))) await once(stream, 'drain');
  }
  stream.end();
  await finished(stream);
}

const COLS = {
  Match: [
    'id',
    'status',
    'version',
    'seatCount',
    'partnerships',
    'rules',
    'chainSecret',
    'dealCommitment',
    'state',
    'winnerTeam',
    'lastEventSeq',
    'createdById',
    'createdAt',
    'updatedAt',
    'startedAt',
    'finishedAt',
  ],
  MatchDealChain: ['matchId', 'checkpoints'],
  Seat: ['matchId', 'index', 'playerId', 'team', 'isBot', 'clientSeed'],
  Team: ['matchId', 'index', 'score'],
  Round: ['matchId', 'number', 'starter', 'status', 'snapshot', 'result', 'startedAt', 'endedAt'],
  Move: ['matchId', 'seq', 'round', 'seat', 'type', 'tileHigh', 'tileLow', 'end', 'points', 'count', 'playerId', 'createdAt'],
  PlayerMatch: ['playerId', 'matchId', 'createdAt', 'status', 'seat'],
} as const;
type Table = keyof typeof COLS;

class Seeder {
  private readonly stats = new Map<string, StatsDelta>();
  private readonly t0 = Date.now() - 400 * 24 * 3600 * 1000;
  readonly matchIds: string[] = [];
  /** Time spent in COPY per table, for the seeding summary. */
  readonly copyMs: Partial<Record<Table, number>> = {};

  constructor(
    /** three connections, so the big COPYs run side by side */
    private readonly sql: postgres.Sql[],
    private readonly templates: Template[],
    readonly players: string[],
  ) {}

  /** Inserts matches number `from` to `to - 1`, oldest first, in chunks. */
  async seed(from: number, to: number): Promise<void> {
    const CHUNK = 5_000;
    for (let lo = from; lo < to; lo += CHUNK) {
      const rows: Record<Table, string[]> = { Match: [], MatchDealChain: [], Seat: [], Team: [], Round: [], Move: [], PlayerMatch: [] };
      for (let i = lo; i < Math.min(to, lo + CHUNK); i++) this.matchRows(i, rows);
      const copy = async (table: Table, sql: postgres.Sql) => {
        const t = performance.now();
        await copyInto(sql, table, [...COLS[table]], rows[table]);
        this.copyMs[table] = (this.copyMs[table] ?? 0) + performance.now() - t;
      };
      // Matches first (the others reference them), then the big tables side by side.
      await copy('Match', this.sql[0]);
      await Promise.all([
        copy('Move', this.sql[0]),
        copy('Round', this.sql[1]),
        (async () => {
          for (const t of ['MatchDealChain', 'Seat', 'Team', 'PlayerMatch'] as const) await copy(t, this.sql[2]);
        })(),
      ]);
    }
    await this.writeStats();
  }

  private matchRows(i: number, rows: Record<Table, string[]>): void {
    const t = this.templates[i % this.templates.length];
    const id = randomUUID();
    this.matchIds.push(id);
    const a = i % PLAYERS;
    const b = (a + 1 + (Math.floor(i / PLAYERS) % (PLAYERS - 1))) % PLAYERS;
    const seats = [this.players[a], this.players[b]];
    const created = new Date(this.t0 + i * 60_000);
    const finished = new Date(created.getTime() + 30 * 60_000);
    rows.Match.push(
      line([
        id,
        'FINISHED',
        t.events,
        2,
        false,
        t.rulesJson,
        t.chainSecret,
        t.dealCommitment,
        t.state,
        t.winner,
        t.events,
        seats[0],
        created,
        finished,
        created,
        finished,
      ]),
    );
    rows.MatchDealChain.push(line([id, t.dealCheckpoints]));
    seats.forEach((p, s) => {
      rows.Seat.push(line([id, s, p, s, false, `seat-${s}`]));
      rows.Team.push(line([id, s, t.scores[s]]));
      rows.PlayerMatch.push(line([p, id, created, 'FINISHED', s]));
    });
    for (const r of t.rounds) rows.Round.push(line([id, r.number, r.starter, 'FINISHED', r.snapshot, r.result, created, finished]));
    for (const m of t.moves) {
      // The actor is stored on a command's first move only; a bot's has none.
      rows.Move.push(
        line([
          id,
          m.seq,
          m.round,
          m.seat,
          m.type,
          m.tile?.high ?? null,
          m.tile?.low ?? null,
          m.end,
          m.points,
          m.count,
          m.type === 'PASS' ? null : seats[m.seat],
          created,
        ]),
      );
    }
    for (const d of statsDeltas({
      seats,
      teams: [[0], [1]],
      teamOfSeat: [0, 1],
      rounds: t.rounds.map((r) => r.parsed),
      matchFinished: true,
      winnerTeam: t.winner,
    })) {
      const prev = this.stats.get(d.playerId);
      this.stats.set(d.playerId, prev ? addDelta(prev, d) : d);
    }
  }

  /** The totals so far, as the StatsWriter would have left them. */
  private async writeStats(): Promise<void> {
    await this.sql[0]`DELETE FROM "PlayerStats"`;
    const cols = [
      'playerId',
      'matchesPlayed',
      'matchesWon',
      'roundsPlayed',
      'pointsScored',
      'roundsWonByDomino',
      'roundsWonByBlock',
      'biggestPlay',
    ] as const;
    await copyInto(
      this.sql[0],
      'PlayerStats',
      [...cols],
      [...this.stats.values()].map((d) => line(cols.map((c) => d[c]))),
    );
  }
}

const Q_PAGE = `query($p: ID!) { matches(playerId: $p, first: 20) { totalCount pageInfo { hasNextPage endCursor }
  edges { cursor node { id status createdAt winner { index score } teams { index score } seats { index team player { id name } } } } } }`;
const Q_STATS = `query($p: ID!) { playerStats(playerId: $p) { matchesPlayed matchesWon matchesLost winRate roundsPlayed pointsScored averagePointsPerRound roundsWonByDomino roundsWonByBlock biggestPlay } }`;
const Q_LEADERS = `{ leaderboard(first: 20) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { rank player { id name } stats { matchesWon matchesPlayed winRate } } } } }`;

type Metric = 'history page' | 'match record' | 'player stats' | 'leaderboard';
const METRICS: Metric[] = ['history page', 'match record', 'player stats', 'leaderboard'];

async function gql(url: string, query: string, variables: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
}

/** Interleaves the four requests (so drift hits all alike) and returns p50/p99 of each, in ms. */
type Stats = Record<Metric, { p50: number; p99: number }>;

/**
 * One server per data size, sampled in turn (every metric, every size, then the next sample), so
 * whatever else the machine does hits every size alike and the ratios compare like with like.
 */
async function measure(stages: Stage[]): Promise<Stats[]> {
  const times = stages.map((): Record<Metric, number[]> => ({ 'history page': [], 'match record': [], 'player stats': [], leaderboard: [] }));
  let x = 12345;
  const pick = (n: number) => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) % n;
  const run = (stage: Stage, m: Metric): Promise<void> => {
    const url = stage.server!.url;
    switch (m) {
      case 'history page':
        return gql(url, Q_PAGE, { p: stage.seeder.players[pick(PLAYERS)] });
      case 'match record':
        return fetch(`${url}/matches/${stage.seeder.matchIds[pick(stage.seeder.matchIds.length)]}/record`).then(async (res) => {
          if (res.status !== 200) throw new Error(`record: HTTP ${res.status}`);
          await res.json();
        });
      case 'player stats':
        return gql(url, Q_STATS, { p: stage.seeder.players[pick(PLAYERS)] });
      case 'leaderboard':
        return gql(url, Q_LEADERS, {});
    }
  };
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    for (const m of METRICS) {
      for (let k = 0; k < stages.length; k++) {
        const t = performance.now();
        await run(stages[k], m);
        if (i >= WARMUP) times[k][m].push(performance.now() - t);
      }
    }
  }
  return times.map((byMetric) => {
    const out = {} as Stats;
    for (const m of METRICS) {
      const sorted = byMetric[m].sort((p, q) => p - q);
      out[m] = { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
    }
    return out;
  });
}

const FLOODERS = 16;
const FLOOD_PHASE_MS = 4_000;
const Q_COUNT_ALL = '{ matches { totalCount } }';

/** A player's history page sampled one after another for a phase: the times, in ms, sorted. */
async function pageTimes(stage: Stage, url: string): Promise<number[]> {
  const times: number[] = [];
  const until = performance.now() + FLOOD_PHASE_MS;
  for (let i = 0; performance.now() < until; i++) {
    const t = performance.now();
    await gql(url, Q_PAGE, { p: stage.seeder.players[(i * 7919) % PLAYERS] });
    times.push(performance.now() - t);
  }
  return times.sort((p, q) => p - q);
}

/** The page's times while FLOODERS clients ask for the count of every match through `url`, and the counts answered. */
async function underFlood(stage: Stage, url: string): Promise<{ times: number[]; counts: number }> {
  let stop = false;
  let counts = 0;
  const flooders = Array.from({ length: FLOODERS }, async () => {
    while (!stop) {
      await gql(url, Q_COUNT_ALL, {});
      counts++;
    }
  });
  const times = await pageTimes(stage, url);
  stop = true;
  await Promise.all(flooders);
  return { times, counts };
}

/**
 * The count flood at one size: the page alone, then under the flood on the gated server
 * (DB_GLOBAL_COUNTS=1) and on an ungated one (DB_GLOBAL_COUNTS=FLOODERS) on the same database, two
 * phases each, alternating, so drift on the machine hits both alike.
 */
async function countFlood(stage: Stage): Promise<Record<string, number>> {
  // Two instances on one database: the stage's own server (PUBSUB=memory) steps aside.
  await stage.server?.close();
  stage.server = null;
  const instance = (globalCounts: number) =>
    startServer(loadConfig({ ...serverEnv(stage.url), PUBSUB: 'postgres', DB_GLOBAL_COUNTS: String(globalCounts) }), { logger: false });
  const [gated, ungated] = [await instance(1), await instance(FLOODERS)];
  try {
    const gatedUrl = gated.url;
    const alone = await pageTimes(stage, gatedUrl);
    const phases = { gated: { times: [] as number[], counts: 0 }, ungated: { times: [] as number[], counts: 0 } };
    for (let round = 0; round < 2; round++) {
      for (const [name, url] of [
        ['gated', gatedUrl],
        ['ungated', ungated.url],
      ] as const) {
        const r = await underFlood(stage, url);
        phases[name].times.push(...r.times);
        phases[name].counts += r.counts;
      }
    }
    const p99 = (t: number[]) =>
      quantile(
        [...t].sort((p, q) => p - q),
        0.99,
      );
    const [a, g, u] = [p99(alone), p99(phases.gated.times), p99(phases.ungated.times)];
    const perSecond = (counts: number) => counts / ((2 * FLOOD_PHASE_MS) / 1000);
    console.log(
      `\ncount flood at ${label(stage.n)}: a player's history page, p99 ${a.toFixed(2)} ms alone; with ${FLOODERS} clients counting every match, ` +
        `${g.toFixed(2)} ms (${(g / a).toFixed(2)}× alone) when one count runs at a time (DB_GLOBAL_COUNTS=1), ` +
        `${u.toFixed(2)} ms (${(u / a).toFixed(2)}×) when all run at once; counts answered ${perSecond(phases.gated.counts).toFixed(0)}/s against ${perSecond(phases.ungated.counts).toFixed(0)}/s`,
    );
    return { floodPageP99RatioGated: g / a, floodPageP99RatioUngated: u / a };
  } finally {
    await Promise.all([gated.close(), ungated.close()]);
  }
}

/** The server's configuration for one stage's database. */
function serverEnv(url: string): Record<string, string> {
  return { ...UNLIMITED_ENV, LOG_LEVEL: 'silent', NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: url, MIGRATE_ON_START: 'false' };
}

/** The PostgreSQL server to use: DATABASE_URL's, or an embedded one in a temp dir. */
async function database(): Promise<{ url: string; name: string; db: RunningDatabase | null; dir: string | null }> {
  const given = process.env.DATABASE_URL;
  if (given) {
    const name = decodeURIComponent(new URL(given).pathname.slice(1));
    if (!/bench|test/i.test(name)) throw new Error(`refusing to seed database "${name}": its name must contain "bench" or "test"`);
    return { url: given, name, db: null, dir: null };
  }
  const dir = await mkdtemp(join(tmpdir(), 'dominoes-bench-pg-'));
  await chmod(dir, 0o755); // PostgreSQL runs as its own unprivileged user
  const db = await startEmbedded(join(dir, 'data'), 0, 'dominoes_bench');
  return { url: db.url, name: 'dominoes_bench', db, dir };
}

const label = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

/** One data size: its own database (named after the given one plus the size), loaders and server. */
interface Stage {
  n: number;
  url: string;
  sql: postgres.Sql;
  loaders: postgres.Sql[];
  seeder: Seeder;
  server: Awaited<ReturnType<typeof startServer>> | null;
}

async function prepare(admin: postgres.Sql, baseUrl: string, baseName: string, n: number, templates: Template[], players: string[]): Promise<Stage> {
  const name = `${baseName}_${label(n)}`;
  await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  await applyMigrations(url);
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { synchronous_commit: 'off' } });
  // Bulk-load sessions: as superuser, skip per-row FK triggers (the rows are consistent by construction).
  const [{ rolsuper }] = await sql<{ rolsuper: boolean }[]>`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`;
  const role = rolsuper ? 'replica' : 'origin';
  const loaders = Array.from({ length: 3 }, () =>
    postgres(url, { max: 1, onnotice: () => {}, connection: { synchronous_commit: 'off', session_replication_role: role } }),
  );
  await copyInto(
    sql,
    'Player',
    ['id', 'name', 'tokenHash'],
    players.map((id, i) => line([id, `bench-${i}`, `bench-token-${id}`])),
  );
  return { n, url, sql, loaders, seeder: new Seeder(loaders, templates, players), server: null };
}

async function seed(stage: Stage): Promise<void> {
  const { sql, loaders, seeder, n } = stage;
  const t = performance.now();
  // Secondary indexes of Move are rebuilt in bulk after the load, not grown row by row.
  const indexes = await sql<{ indexname: string; indexdef: string }[]>`
    SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'Move' AND indexname <> 'Move_pkey'`;
  for (const ix of indexes) await sql.unsafe(`DROP INDEX "${ix.indexname}"`);
  await seeder.seed(0, n);
  await Promise.all(indexes.map((ix, k) => loaders[k % loaders.length].unsafe(ix.indexdef)));
  await sql`VACUUM ANALYZE`;
  // Flush the load now, so a checkpoint's writes do not land in the samples (superuser only).
  await sql`CHECKPOINT`.catch(() => {});
  const copies = Object.entries(seeder.copyMs)
    .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`)
    .join(', ');
  console.log(`seeded ${n.toLocaleString('en')} matches in ${((performance.now() - t) / 1000).toFixed(1)} s (COPY s: ${copies})`);
}

async function main(): Promise<void> {
  const base = await database();
  const admin = postgres(base.url, { max: 1, onnotice: () => {} });
  const stages: Stage[] = [];
  try {
    const t = performance.now();
    const rules = resolveRules({ targetScore: 100 });
    const templates = Array.from({ length: TEMPLATES }, (_, k) => playTemplate(1000 + k, rules));
    const movesPer = templates.reduce((s, x) => s + x.moves.length, 0) / TEMPLATES;
    const roundsPer = templates.reduce((s, x) => s + x.rounds.length, 0) / TEMPLATES;
    console.log(
      `engine: ${TEMPLATES} distinct matches in ${((performance.now() - t) / 1000).toFixed(1)} s (${movesPer.toFixed(0)} moves, ${roundsPer.toFixed(1)} rounds each on average)`,
    );
    const players = Array.from({ length: PLAYERS }, () => randomUUID());

    for (const n of SIZES) {
      const stage = await prepare(admin, base.url, base.name, n, templates, players);
      stages.push(stage);
      await seed(stage);
    }
    for (const stage of stages) {
      stage.server = await startServer(loadConfig(serverEnv(stage.url)), { logger: false });
    }
    collectGarbage(); // the seeding's garbage, not the requests', would otherwise land in the samples
    const results = await measure(stages);

    console.log('');
    const [lo, hi] = [label(SIZES[0]), label(SIZES[SIZES.length - 1])];
    console.log(
      `${'metric'.padEnd(14)} ${`p50@${lo}`.padStart(9)} ${`p99@${lo}`.padStart(9)} ${`p50@${hi}`.padStart(9)} ${`p99@${hi}`.padStart(9)} ${'p99 ratio'.padStart(9)}`,
    );
    let ok = true;
    const figures = { historyWorstP99Ms: 0, historyWorstP99Ratio: 0 };
    for (const m of METRICS) {
      const [s, l] = [results[0][m], results[results.length - 1][m]];
      const ratio = l.p99 / s.p99;
      const pass = l.p99 <= 20 && ratio <= 2;
      figures.historyWorstP99Ms = Math.max(figures.historyWorstP99Ms, l.p99);
      figures.historyWorstP99Ratio = Math.max(figures.historyWorstP99Ratio, ratio);
      ok &&= pass;
      console.log(
        `${m.padEnd(14)} ${s.p50.toFixed(2).padStart(9)} ${s.p99.toFixed(2).padStart(9)} ${l.p50.toFixed(2).padStart(9)} ${l.p99.toFixed(2).padStart(9)} ${ratio.toFixed(2).padStart(9)}  ${pass ? 'ok' : 'MISSED'}`,
      );
    }
    console.log(
      `\n(ms over HTTP, ${SAMPLES} interleaved samples per size after ${WARMUP} warm-ups; targets p99 ≤ 20 ms at ${hi} and p99@${hi} / p99@${lo} ≤ 2: ${ok ? 'met' : 'NOT met'})`,
    );
    const flood = process.env.BENCH_FLOOD === '0' ? {} : await countFlood(stages[stages.length - 1]);
    report({ ...figures, ...flood });
  } finally {
    for (const stage of stages) {
      await stage.server?.close();
      await Promise.all([stage.sql, ...stage.loaders].map((c) => c.end().catch(() => {})));
      if (!base.db) await admin.unsafe(`DROP DATABASE IF EXISTS "${base.name}_${label(stage.n)}" WITH (FORCE)`).catch(() => {});
    }
    await admin.end().catch(() => {});
    await base.db?.stop();
    if (base.dir) await rm(base.dir, { recursive: true, force: true });
  }
}

await main();
