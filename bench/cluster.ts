/**
 * `npm run bench:cluster`: moves/s of the server as one process against WORKERS=2 (node:cluster,
 * two processes behind one port), both with PUBSUB=postgres, on the same fresh database. Closed
 * loop as bench:moves: C clients (BENCH_CLIENTS, default 8,16), each driving its own 2-player match
 * (read the mover's legal moves, play or draw, a new match when one ends). The two set-ups take
 * turns (one, two, one, two: BENCH_ROUNDS pairs, default 2) so that load from elsewhere on the
 * machine hits both alike; each server start is warmed up first (BENCH_WARMUP_SECONDS); the ratio
 * is two processes ÷ one at each C.
 *
 * Prints plain lines and a BENCH_RESULT line.
 */
import { availableParallelism, loadavg } from 'node:os';
import { DRAW, PLAY, REGISTER } from './support/operations.js';
import { benchDatabase, fmt, gql, percentile, startServerProcess } from './support/harness.js';
import { report } from './support/result.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CLIENTS = (process.env.BENCH_CLIENTS ?? '8,16').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/**
 * Moves before the first measurement of each server start (BENCH_WARMUP_SECONDS): V8 keeps
 * optimizing a move's code for about 20 s of moves (see bench:moves), and with WORKERS=2 each
 * process sees half of them, so a short warm-up measured two half-compiled processes against one
 * warmer one. Later client counts on the same server warm up for a second only.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 20);

const CREATE = 'mutation { createMatch(input: { seats: 2 }) { id } }';
const JOIN = 'mutation($id: ID!) { joinMatch(matchId: $id) { turn } }';
const MINE = 'query($id: ID!) { match(id: $id) { version legalMoves { tile { high low } end } } }';

interface Run {
  moves: number;
  latencies: number[];
}

interface Seat {
  tokens: string[];
  matchId: string;
  turn: number;
}

/** Two players and their match: made before the clock starts, so a slow machine times moves only. */
async function prepare(url: string, id: number): Promise<Seat> {
  const tokens = await Promise.all(
    [0, 1].map(async (i) => (await gql<{ registerPlayer: { token: string } }>(url, REGISTER, { n: `cl${id}-${i}` })).registerPlayer.token),
  );
  const seat: Seat = { tokens, matchId: '', turn: 0 };
  await newMatch(url, seat);
  return seat;
}

async function newMatch(url: string, seat: Seat): Promise<void> {
  seat.matchId = (await gql<{ createMatch: { id: string } }>(url, CREATE, {}, seat.tokens[0])).createMatch.id;
  seat.turn = (await gql<{ joinMatch: { turn: number } }>(url, JOIN, { id: seat.matchId }, seat.tokens[1])).joinMatch.turn;
}

async function drive(url: string, seat: Seat, until: number, run: Run, id: number): Promise<void> {
  let pick = id * 7919;
  while (Date.now() < until) {
    const token = seat.tokens[seat.turn];
    const matchId = seat.matchId;
    const view = (await gql<{ match: { version: number; legalMoves: { tile: unknown; end: unknown }[] } }>(url, MINE, { id: matchId }, token)).match;
    const t0 = performance.now();
    const mv = view.legalMoves[pick++ % Math.max(1, view.legalMoves.length)];
    const res = mv
      ? (
          await gql<{ playTile: { status: string; turn: number } }>(
            url,
            PLAY,
            { i: { matchId, tile: mv.tile, end: mv.end, expectedVersion: view.version } },
            token,
          )
        ).playTile
      : (await gql<{ drawTile: { status: string; turn: number } }>(url, DRAW, { i: { matchId, expectedVersion: view.version } }, token)).drawTile;
    run.latencies.push(performance.now() - t0);
    run.moves++;
    if (res.status !== 'IN_PROGRESS') await newMatch(url, seat);
    else seat.turn = res.turn;
  }
}

let nextClient = 0;
async function measure(url: string, clients: number, warmupSeconds: number): Promise<{ rate: number; p99: number }> {
  const ids = Array.from({ length: clients }, () => nextClient++);
  const seats = await Promise.all(ids.map((id) => prepare(url, id)));
  const warmUntil = Date.now() + warmupSeconds * 1000;
  await Promise.all(seats.map((seat, i) => drive(url, seat, warmUntil, { moves: 0, latencies: [] }, ids[i])));
  const run: Run = { moves: 0, latencies: [] };
  const t0 = performance.now();
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(seats.map((seat, i) => drive(url, seat, until, run, ids[i])));
  const seconds = (performance.now() - t0) / 1000;
  return {
    rate: run.moves / seconds,
    p99: percentile(
      run.latencies.sort((a, b) => a - b),
      99,
    ),
  };
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  console.log(
    `bench:cluster — ${SECONDS}s per run after ${WARMUP_SECONDS}s of warm-up per server, ${ROUNDS} rounds, ${availableParallelism()} cores, ` +
      `${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}`,
  );
  const rates = new Map<string, number[]>();
  const p99s = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const workers of [1, 2]) {
      const server = await startServerProcess(db.url, { PUBSUB: 'postgres', WORKERS: String(workers) });
      try {
        for (const [i, clients] of CLIENTS.entries()) {
          const r = await measure(server.url, clients, i === 0 ? WARMUP_SECONDS : 1);
          const key = `${workers}:${clients}`;
          rates.set(key, [...(rates.get(key) ?? []), r.rate]);
          p99s.set(key, [...(p99s.get(key) ?? []), r.p99]);
          console.log(
            `round ${round + 1}, WORKERS=${workers}, ${clients} clients: ${fmt(r.rate)} moves/s, p99 ${fmt(r.p99, 2)} ms (load average ${fmt(loadavg()[0], 1)})`,
          );
        }
      } finally {
        await server.stop();
      }
    }
  }
  await db.stop();
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const figures: Record<string, number> = {};
  for (const clients of CLIENTS) {
    const one = mean(rates.get(`1:${clients}`)!);
    const two = mean(rates.get(`2:${clients}`)!);
    console.log(
      `${clients} clients: one process ${fmt(one)} moves/s (p99 ${fmt(mean(p99s.get(`1:${clients}`)!), 1)} ms), ` +
        `WORKERS=2 ${fmt(two)} moves/s (p99 ${fmt(mean(p99s.get(`2:${clients}`)!), 1)} ms): ratio ${fmt(two / one, 2)}`,
    );
    figures[`clusterRatio${clients}`] = two / one;
  }
  figures.clusterRatio = figures[`clusterRatio${CLIENTS.at(-1)}`];
  report(figures);
}

await main();
process.exit(0);
