/**
 * `npm run bench:sweeper`: the timeout sweeper under a backlog, and what it costs a player.
 *
 * 10,000 two-player matches (BENCH_MATCHES) with a PER_MOVE clock (BOT_PLAYS) are made due at
 * once, and the sweepers time each one out once: TIMED_OUT and the greedy move for the silent
 * seat, through the same compare-and-set as a move. Measured: timeouts applied per second by one
 * instance, then (the same matches made due again) by two; meanwhile C clients play other matches
 * move by move (bench:moves' loop), and their playTile p99 is compared with the same clients'
 * p99 on the same server with nothing to sweep, before and after (averaged, so load from
 * elsewhere on the machine hits both sides alike). Rates come from the stored events' own times.
 */
import pg from 'pg';
import { REGISTER } from './support/operations.js';
import { benchDatabase, fmt, gql, percentile, startServerProcess } from './support/harness.js';
import { report } from './support/result.js';

const MATCHES = Number(process.env.BENCH_MATCHES ?? 10_000);
const TEMPLATES = 100;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const BASELINE_SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ENV = { PUBSUB: 'postgres', CLOCK_MIN_SECONDS: '1' };

const CREATE = 'mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }';
const JOIN = 'mutation($id: ID!) { joinMatch(matchId: $id) { turn } }';
const MINE = 'query($id: ID!) { match(id: $id) { version legalMoves { tile { high low } end } } }';
const PLAY = 'mutation($i: PlayTileInput!) { playTile(input: $i) { status turn } }';
const DRAW = 'mutation($i: TurnInput!) { drawTile(input: $i) { status turn } }';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const q = (name: string) => `"${name}"`;

async function players(url: string, tag: string): Promise<string[]> {
  return Promise.all(
    [0, 1].map(async (i) => (await gql<{ registerPlayer: { token: string } }>(url, REGISTER, { n: `${tag}-${i}` })).registerPlayer.token),
  );
}

async function duel(url: string, tokens: string[], clock?: Record<string, unknown>): Promise<{ id: string; turn: number }> {
  const id = (await gql<{ createMatch: { id: string } }>(url, CREATE, { input: { seats: 2, ...(clock ? { clock } : {}) } }, tokens[0])).createMatch
    .id;
  return { id, turn: (await gql<{ joinMatch: { turn: number } }>(url, JOIN, { id }, tokens[1])).joinMatch.turn };
}

/** bench:moves' client: plays its own match (no clock) move by move until `stop()`; playTile/drawTile latencies into `out`. */
async function player(url: string, tag: string, stop: () => boolean, out: number[]): Promise<void> {
  const tokens = await players(url, tag);
  let { id, turn } = await duel(url, tokens);
  for (let pick = 0; !stop(); pick++) {
    const view = (await gql<{ match: { version: number; legalMoves: { tile: unknown; end: string | null }[] } }>(url, MINE, { id }, tokens[turn]))
      .match;
    const input = { matchId: id, expectedVersion: view.version };
    const mv = view.legalMoves[pick % Math.max(1, view.legalMoves.length)];
    const t0 = performance.now();
    const res = mv
      ? (await gql<{ playTile: { status: string; turn: number } }>(url, PLAY, { i: { ...input, tile: mv.tile, end: mv.end } }, tokens[turn])).playTile
      : (await gql<{ drawTile: { status: string; turn: number } }>(url, DRAW, { i: input }, tokens[turn])).drawTile;
    out.push(performance.now() - t0);
    if (res.status === 'IN_PROGRESS') turn = res.turn;
    else ({ id, turn } = await duel(url, tokens));
  }
}

/** Plays with CLIENTS clients until `done` resolves; returns the sorted latencies and moves/s. */
async function playWhile(url: string, tag: string, done: Promise<unknown>): Promise<{ latencies: number[]; rate: number }> {
  const out: number[] = [];
  let stopped = false;
  const start = performance.now();
  const clients = Array.from({ length: CLIENTS }, (_, i) => player(url, `${tag}${i}`, () => stopped, out));
  await done;
  stopped = true;
  await Promise.all(clients);
  return { latencies: out.sort((a, b) => a - b), rate: out.length / ((performance.now() - start) / 1000) };
}

/**
 * Copies every clocked match `copies - 1` more times under new ids, every row that hangs off it
 * included (columns read from the catalogue, so the copy follows the schema).
 */
async function cloneClocked(db: pg.Client, copies: number): Promise<void> {
  await db.query(
    `CREATE TEMP TABLE clone_map AS SELECT m.id AS old, gen_random_uuid() AS new FROM "Match" m CROSS JOIN generate_series(2, $1) WHERE m.clock IS NOT NULL`,
    [copies],
  );
  for (const [table, key] of [
    ['Match', 'id'],
    ['Seat', 'matchId'],
    ['Team', 'matchId'],
    ['Round', 'matchId'],
    ['PlayerMatch', 'matchId'],
    ['MatchEvent', 'matchId'],
    ['Move', 'matchId'],
  ]) {
    const cols = (
      await db.query<{ c: string }>(
        `SELECT column_name AS c FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
        [table],
      )
    ).rows.map((r) => r.c);
    // A match's unique links (its invite code, the match it is a rematch of) stay with the original.
    const unique = table === 'Match' ? ['inviteCode', 'rematchOfId'] : [];
    const select = cols.map((c) => (c === key ? 'x.new' : unique.includes(c) ? 'NULL' : `t.${q(c)}`)).join(', ');
    await db.query(`INSERT INTO ${q(table)} (${cols.map(q).join(', ')}) SELECT ${select} FROM ${q(table)} t JOIN clone_map x ON t.${q(key)} = x.old`);
  }
}

/** Makes every clocked match in progress due now: its seat to move ran out a second ago (its 80 % reminder already sent). */
async function arm(db: pg.Client): Promise<number> {
  const r = await db.query(`
    UPDATE "Match" SET "clockDueAt" = now() - interval '1 second', "deadlineAt" = now() - interval '1 second',
      "clockState" = "clockState" || jsonb_build_object('deadline', t.d, 'since', t.d - 3600000, 'warned', true)
    FROM (SELECT (extract(epoch FROM now()) * 1000)::bigint - 1000 AS d) t
    WHERE "clock" IS NOT NULL AND "status" = 'IN_PROGRESS'`);
  return r.rowCount ?? 0;
}

/** Waits until `n` TIMED_OUT events are stored after `since`; returns timeouts/s between the first and the last. */
async function swept(db: pg.Client, since: Date, n: number): Promise<number> {
  for (;;) {
    const r = await db.query<{ n: number; first: Date; last: Date }>(
      `SELECT count(*)::int AS n, min("createdAt") AS first, max("createdAt") AS last FROM "MatchEvent" WHERE type = 'TIMED_OUT' AND "createdAt" >= $1`,
      [since],
    );
    const { n: done, first, last } = r.rows[0];
    if (done >= n) return (done - 1) / ((last.getTime() - first.getTime()) / 1000);
    await sleep(100);
  }
}

async function main(): Promise<void> {
  const database = await benchDatabase();
  const a = await startServerProcess(database.url, ENV);
  const servers = [a];
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    // Templates through the API (so every row is as the service writes it), then copies.
    const owners = await Promise.all(Array.from({ length: 10 }, (_, i) => players(a.url, `owner${i}`)));
    await Promise.all(
      Array.from({ length: TEMPLATES }, (_, i) => duel(a.url, owners[i % owners.length], { kind: 'PER_MOVE', moveSeconds: 3600, forfeitAfter: 0 })),
    );
    await cloneClocked(db, Math.ceil(MATCHES / TEMPLATES));
    const matches = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Match" WHERE clock IS NOT NULL`)).rows[0].n;
    console.log(
      `bench:sweeper — ${matches} clocked matches, ${CLIENTS} clients playing meanwhile, ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}`,
    );

    const before = await playWhile(a.url, 'base-a', sleep(BASELINE_SECONDS * 1000));
    const dbNow = async () => (await db.query<{ t: Date }>('SELECT now() AS t')).rows[0].t;
    const rates: number[] = [];
    const during: { latencies: number[]; rate: number }[] = [];
    for (const instances of [1, 2]) {
      if (instances === 2) servers.push(await startServerProcess(database.url, ENV));
      const since = await dbNow();
      const due = await arm(db);
      let rate = 0;
      during.push(
        await playWhile(
          a.url,
          `sweep${instances}-`,
          swept(db, since, due).then((r) => (rate = r)),
        ),
      );
      rates.push(rate);
    }
    const after = await playWhile(a.url, 'base-b', sleep(BASELINE_SECONDS * 1000));

    const baseP99 = (percentile(before.latencies, 99) + percentile(after.latencies, 99)) / 2;
    const baseRate = (before.rate + after.rate) / 2;
    const p99 = during.map((d) => percentile(d.latencies, 99));
    console.log(
      `baseline (nothing due): ${fmt(baseRate)} moves/s, playTile p99 ${fmt(baseP99, 2)} ms\n` +
        rates
          .map(
            (r, i) =>
              `${i + 1} instance${i ? 's' : ''}: ${fmt(r)} timeouts/s (${fmt(r / baseRate, 2)}× the baseline's moves/s); playTile p99 meanwhile ${fmt(p99[i], 2)} ms = ${fmt(p99[i] / baseP99, 2)}× the baseline`,
          )
          .join('\n') +
        `\ntwo instances ÷ one: ${fmt(rates[1] / rates[0], 2)}`,
    );
    report({
      timeouts_per_s_1_instance_vs_moves_per_s: rates[0] / baseRate,
      timeouts_per_s_2_instances_vs_moves_per_s: rates[1] / baseRate,
      timeouts_per_s_2_vs_1_instances: rates[1] / rates[0],
      play_p99_during_sweep_1_instance_vs_baseline: p99[0] / baseP99,
      play_p99_during_sweep_2_instances_vs_baseline: p99[1] / baseP99,
    });
  } finally {
    await db.end();
    for (const s of servers) await s.stop();
    await database.stop();
  }
}

await main();
