/**
 * `npm run bench:subscriptions`: what the graphql-ws subscriptions cost, against the compiled
 * server running as a child process on a fresh database.
 *
 * 1. Delivery latency. M 4-seat matches, each watched live (`matchEvents` without afterSeq) by its
 *    4 players (own tokens) and 4 spectators (2 registered non-players, 2 anonymous), one
 *    graphql-ws connection each. Moves are driven open-loop at BENCH_RATE moves/s in total (split
 *    over the matches; default 40 = about half of bench:moves' top rate on this 2-core machine):
 *    the mover's view is read ahead, then playTile/drawTile is sent at its scheduled instant.
 *    Each match has one move in flight, so the n-th TILE_PLAYED/TILE_DRAWN event a subscriber
 *    receives for a match is the driver's n-th move there (the server itself only adds PASSes).
 *    Latency of a subscriber×move pair = receipt of the event − arrival of the mutation's HTTP
 *    response (the commit happened before that response was written), and, for reference, −
 *    the request's send. Measured at the same time and the same rate of 20/s each: the round
 *    trip of a graphql-ws no-op (`{ __typename }` as a ws operation) and of an HTTP `{ __typename }`.
 *    Finished matches are replaced by new ones (same connections, new subscriptions).
 * 2. Fan-out. One match per BENCH_FANOUT entry (default 2500,10000 watchers), each watched by its
 *    4 players and anonymous spectators, half with a small and half with a larger document,
 *    the client sockets held by child processes (bench/support/fleet.ts). Then BENCH_FANOUT_MOVES
 *    moves (default 5) in each, one at a time: ms from the commit-ack to the last watcher's first
 *    event, median over the moves (targets: 2,500 ≤ 50 ms, 10,000 ≤ 150 ms).
 *
 * Prints plain lines and a BENCH_RESULT line; exits 0 whether or not the targets are met.
 */
import { createClient, type Client } from 'graphql-ws';
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { DRAW, PLAY, REGISTER } from './support/operations.js';
import { benchDatabase, fmt, gql, metrics, percentile, startServerProcess, watchdog } from './support/harness.js';
import { report } from './support/result.js';
import { FLOOR_BYTES, Floor, fourSeatMatch, moveAndWait, openWatchers, watchersOf } from './support/watchers.js';

// Half of bench:moves' top rate on this machine (8 clients: ~350–440 moves/s, Fastify build).
const RATE = Number(process.env.BENCH_RATE ?? 180);
const MATCHES = Number(process.env.BENCH_MATCHES ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = 3;
/** Watchers per match in the fan-out phase, one match each (BENCH_FANOUT, comma-separated). */
const FANOUT = (process.env.BENCH_FANOUT ?? '2500,10000').split(',').map(Number);
const FANOUT_MOVES = Number(process.env.BENCH_FANOUT_MOVES ?? 5);
const FANOUT_TARGET_MS: Record<number, number> = { 2500: 50, 10000: 150 };
const TARGET_ADDED_P99_MS = 10;

const CREATE = 'mutation { createMatch(input: { seats: 4 }) { id } }';
const JOIN = 'mutation($id: ID!) { joinMatch(matchId: $id) { turn mySeat } }';
const MINE = 'query($id: ID!) { match(id: $id) { version turn status legalMoves { tile { high low } end } canDraw } }';
const EVENTS = 'subscription($id: ID!) { matchEvents(matchId: $id) { seq type move { seq seat } match { version } } }';

interface Ev {
  seq: number;
  type: string;
  move: { seq: number; seat: number } | null;
  match: { version: number };
}
interface View {
  version: number;
  turn: number | null;
  status: string;
  legalMoves: { tile: { high: number; low: number }; end: string | null }[];
  canDraw: boolean;
}

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const register = async (url: string, name: string) =>
  (await gql<{ registerPlayer: { token: string } }>(url, REGISTER, { n: name })).registerPlayer.token;
const wsUrl = (url: string) => url.replace(/^http/, 'ws') + '/graphql';
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const p = (xs: number[], q: number) => fmt(percentile(xs, q), 2);
const verdict = (ok: boolean) => (ok ? 'target met' : 'target missed');

async function waitFor(pred: () => boolean | Promise<boolean>, timeoutMs: number, stepMs = 25): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await pred()) return true;
    await sleep(stepMs);
  }
  return pred();
}

// ---------------------------------------------------------------- phase 1: delivery latency

/** One driver move of a match: when it was sent and acknowledged, and when each subscriber got it. */
interface SentMove {
  seat: number;
  tSend: number;
  tAck: number | null;
  receipts: number[];
}

/** One match being played in a slot, with its 8 subscriptions. */
interface Generation {
  matchId: string;
  moves: SentMove[];
  seen: number[]; // per subscriber: TILE_* events received so far
  roundStarted: boolean[];
  seatMismatches: number;
  disposers: (() => void)[];
}

interface Stats {
  fromAck: number[];
  fromSend: number[];
  command: number[];
  moves: number;
  expected: number; // subscriber×move pairs that should have arrived
  missing: number;
  seatMismatches: number;
  subErrors: number;
  late: number; // sends more than one interval behind schedule
  matchesFinished: number;
}

function newClient(url: string, token: string | null): Client {
  return createClient({
    url: wsUrl(url),
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: (e) => console.error('graphql-ws connection error', e),
  });
}

class Slot {
  players: string[] = [];
  spectators: (string | null)[] = [];
  clients: Client[] = [];
  gen!: Generation;
  seatToken = new Map<number, string>();
  turn = 0;

  constructor(
    private readonly url: string,
    private readonly id: number,
    private readonly stats: Stats,
    private readonly measuring: () => { from: number; to: number },
  ) {}

  async init(): Promise<void> {
    this.players = await Promise.all([0, 1, 2, 3].map((i) => register(this.url, `sub${this.id}-p${i}`)));
    this.spectators = [await register(this.url, `sub${this.id}-s0`), await register(this.url, `sub${this.id}-s1`), null, null];
    this.clients = [...this.players, ...this.spectators].map((t) => newClient(this.url, t));
    await this.newMatch();
  }

  /** A new match; live subscriptions before anyone joins, so the joins prove they are live. */
  async newMatch(): Promise<void> {
    const matchId = (await gql<{ createMatch: { id: string } }>(this.url, CREATE, {}, this.players[0])).createMatch.id;
    const gen: Generation = {
      matchId,
      moves: [],
      seen: this.clients.map(() => 0),
      roundStarted: this.clients.map(() => false),
      seatMismatches: 0,
      disposers: [],
    };
    this.gen = gen;
    this.clients.forEach((client, k) => {
      gen.disposers.push(
        client.subscribe<{ matchEvents: Ev }>(
          { query: EVENTS, variables: { id: matchId } },
          {
            next: (r) => {
              const t = now();
              if (r.errors) this.stats.subErrors++;
              const e = r.data?.matchEvents;
              if (!e) return;
              if (e.type === 'ROUND_STARTED') gen.roundStarted[k] = true;
              if (e.type !== 'TILE_PLAYED' && e.type !== 'TILE_DRAWN') return;
              const mv = gen.moves[gen.seen[k]++];
              if (!mv) return;
              if (e.move?.seat !== mv.seat) gen.seatMismatches++;
              mv.receipts.push(t);
            },
            error: (e) => {
              this.stats.subErrors++;
              console.error(`slot ${this.id} subscriber ${k}:`, e);
            },
            complete: () => {},
          },
        ),
      );
    });
    await sleep(50); // let the subscribe messages reach the server before the joins
    this.seatToken = new Map([[0, this.players[0]]]);
    for (const token of this.players.slice(1)) {
      const { joinMatch } = await gql<{ joinMatch: { turn: number | null; mySeat: number } }>(this.url, JOIN, { id: matchId }, token);
      this.seatToken.set(joinMatch.mySeat, token);
      this.turn = joinMatch.turn ?? 0;
    }
    if (!(await waitFor(() => gen.roundStarted.every(Boolean), 5_000))) {
      console.warn(`slot ${this.id}: ${gen.roundStarted.filter((x) => !x).length} subscriber(s) missed ROUND_STARTED (subscribed late)`);
    }
  }

  /** Folds a generation's moves into the stats (only moves sent inside the measured window). */
  private account(gen: Generation): void {
    const { from, to } = this.measuring();
    for (const mv of gen.moves) {
      if (mv.tAck === null || mv.tSend < from || mv.tSend >= to) continue;
      this.stats.moves++;
      this.stats.command.push(mv.tAck - mv.tSend);
      this.stats.expected += this.clients.length;
      this.stats.missing += this.clients.length - mv.receipts.length;
      for (const r of mv.receipts) {
        this.stats.fromAck.push(r - mv.tAck);
        this.stats.fromSend.push(r - mv.tSend);
      }
    }
    this.stats.seatMismatches += gen.seatMismatches;
  }

  private async closeGeneration(graceMs: number): Promise<void> {
    const gen = this.gen;
    const last = gen.moves.at(-1);
    if (last) await waitFor(() => last.receipts.length >= this.clients.length, graceMs, 5);
    gen.disposers.forEach((d) => d());
    // Receipts not in by now (graceMs after the last move's ack at most) count as missing.
    this.account(gen);
  }

  /** Moves at a fixed pace until `end`; the mover's view is read before its scheduled instant. */
  async drive(start: number, end: number, intervalMs: number): Promise<void> {
    let next = start + (this.id / MATCHES) * intervalMs; // stagger the slots
    let pick = this.id * 7919;
    while (next < end) {
      const token = this.seatToken.get(this.turn)!;
      const view = (await gql<{ match: View }>(this.url, MINE, { id: this.gen.matchId }, token)).match;
      const wait = next - now();
      if (wait > 0) await sleep(wait);
      else if (-wait > intervalMs) this.stats.late++;
      const mv: SentMove = { seat: this.turn, tSend: now(), tAck: null, receipts: [] };
      this.gen.moves.push(mv);
      let res: { status: string; turn: number | null };
      try {
        if (view.legalMoves.length > 0) {
          const lm = view.legalMoves[pick++ % view.legalMoves.length];
          res = (
            await gql<{ playTile: { status: string; turn: number | null } }>(
              this.url,
              PLAY,
              { i: { matchId: this.gen.matchId, tile: lm.tile, end: lm.end, expectedVersion: view.version } },
              token,
            )
          ).playTile;
        } else {
          res = (
            await gql<{ drawTile: { status: string; turn: number | null } }>(
              this.url,
              DRAW,
              { i: { matchId: this.gen.matchId, expectedVersion: view.version } },
              token,
            )
          ).drawTile;
        }
      } catch (e) {
        // Not committed: it will produce no event, so it must not take an event's place.
        this.gen.moves.pop();
        console.error(`slot ${this.id}: move failed: ${(e as Error).message}`);
        const fresh = (await gql<{ match: View }>(this.url, MINE, { id: this.gen.matchId }, token)).match;
        this.turn = fresh.turn ?? this.turn;
        next += intervalMs;
        continue;
      }
      mv.tAck = now();
      next += intervalMs;
      if (res.status !== 'IN_PROGRESS') {
        this.stats.matchesFinished++;
        await this.closeGeneration(2_000);
        await this.newMatch();
        next = Math.max(next, now());
      } else this.turn = res.turn ?? this.turn;
    }
  }

  async finish(): Promise<void> {
    await this.closeGeneration(2_000);
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map(async (c) => c.dispose()));
  }
}

/** Round trips of a no-op over graphql-ws and over HTTP, at `perSecond` each, until `end`. */
async function baselines(url: string, end: number, perSecond: number, measureFrom: () => number): Promise<{ ws: number[]; http: number[] }> {
  const client = newClient(url, null);
  const out = { ws: [] as number[], http: [] as number[] };
  const wsNoop = () =>
    new Promise<number>((resolve, reject) => {
      const t0 = now();
      let t = 0;
      client.subscribe({ query: '{ __typename }' }, { next: () => (t = now() - t0), error: reject, complete: () => resolve(t) });
    });
  const loop = async (probe: () => Promise<number>, into: number[]) => {
    let next = now();
    while (next < end) {
      const wait = next - now();
      if (wait > 0) await sleep(wait);
      const t0 = now();
      const rtt = await probe();
      if (t0 >= measureFrom()) into.push(rtt);
      next += 1000 / perSecond;
    }
  };
  await Promise.all([
    loop(wsNoop, out.ws),
    loop(async () => {
      const t0 = now();
      await gql(url, '{ __typename }');
      return now() - t0;
    }, out.http),
  ]);
  await client.dispose();
  return out;
}

async function latencyPhase(url: string): Promise<Record<string, number>> {
  const stats: Stats = {
    fromAck: [],
    fromSend: [],
    command: [],
    moves: 0,
    expected: 0,
    missing: 0,
    seatMismatches: 0,
    subErrors: 0,
    late: 0,
    matchesFinished: 0,
  };
  let window = { from: Infinity, to: Infinity };
  const slots = Array.from({ length: MATCHES }, (_, i) => new Slot(url, i, stats, () => window));
  await Promise.all(slots.map((s) => s.init()));
  const open = (await metrics(url)).openSubscriptions;
  const intervalMs = (1000 * MATCHES) / RATE;
  const start = now() + 100;
  window = { from: start + WARMUP_SECONDS * 1000, to: start + (WARMUP_SECONDS + SECONDS) * 1000 };
  console.log(
    `latency: ${MATCHES} matches × (4 players + 4 spectators) = ${MATCHES * 8} live subscriptions (server counts ${open}), ` +
      `${RATE} moves/s in total (one every ${fmt(intervalMs, 0)} ms per match), ${WARMUP_SECONDS}s warm-up + ${SECONDS}s measured`,
  );
  // The client's own event-loop delay over the measured window: receipt times include it.
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  const startLoopMonitor = setTimeout(() => loopDelay.enable(), window.from - now());
  const [base] = await Promise.all([baselines(url, window.to, 20, () => window.from), ...slots.map((s) => s.drive(start, window.to, intervalMs))]);
  clearTimeout(startLoopMonitor);
  loopDelay.disable();
  await Promise.all(slots.map((s) => s.finish()));
  await Promise.all(slots.map((s) => s.close()));

  const fromAck = sorted(stats.fromAck);
  const fromSend = sorted(stats.fromSend);
  const command = sorted(stats.command);
  const ws = sorted(base.ws);
  const http = sorted(base.http);
  const measured = (window.to - window.from) / 1000;
  console.log(
    `moves: ${stats.moves} in the measured ${fmt(measured, 0)}s (${fmt(stats.moves / measured)} moves/s, ${stats.late} sent > 1 interval late), ` +
      `${stats.matchesFinished} matches finished and replaced; mutation round trip p50 ${p(command, 50)} ms p99 ${p(command, 99)} ms`,
  );
  console.log(
    `received ${fromAck.length} of ${stats.expected} subscriber×move events (${stats.missing} missing, ${stats.seatMismatches} out of order, ${stats.subErrors} subscription errors)`,
  );
  console.log(`delivery p50 ${p(fromAck, 50)} ms p99 ${p(fromAck, 99)} ms max ${p(fromAck, 100)} ms (from commit-ack)`);
  console.log(`delivery p50 ${p(fromSend, 50)} ms p99 ${p(fromSend, 99)} ms (from request send, for reference)`);
  console.log(
    `baseline, same run: graphql-ws no-op round trip p50 ${p(ws, 50)} ms p99 ${p(ws, 99)} ms (n=${ws.length}); ` +
      `HTTP { __typename } round trip p50 ${p(http, 50)} ms p99 ${p(http, 99)} ms (n=${http.length})`,
  );
  console.log(
    `bench client event-loop delay (measured window): p50 ${fmt(loopDelay.percentile(50) / 1e6, 2)} ms p99 ${fmt(loopDelay.percentile(99) / 1e6, 2)} ms max ${fmt(loopDelay.max / 1e6, 2)} ms`,
  );
  console.log(`machine load average (1 min) at the end of the phase: ${fmt(loadavg()[0], 2)} on ${availableParallelism()} cores`);
  // The ack and the event each cross one hop from the server after the commit, so receipt − ack is
  // the time the subscription path adds after the commit; the no-op shows the transport floor.
  const strict = percentile(fromAck, 99);
  const overFloor = strict - percentile(ws, 99);
  const complete = stats.missing === 0;
  console.log(
    `added p99 (target ≤ ${TARGET_ADDED_P99_MS}): ${fmt(overFloor, 2)} ms over the same-run ws no-op p99 — ${verdict(overFloor <= TARGET_ADDED_P99_MS && complete)}; ` +
      `strict reading, receipt − commit-ack p99 ${fmt(strict, 2)} ms — ${verdict(strict <= TARGET_ADDED_P99_MS && complete)}`,
  );
  return { subsDeliveryP99Ms: strict, subsAddedP99Ms: overFloor };
}

// ---------------------------------------------------------------- phase 2: fan-out

/** Fan-out: one move to the many watchers of one match, each size its own match. */
async function fanoutPhase(url: string): Promise<Record<string, number>> {
  const matches = await Promise.all(FANOUT.map((_, i) => fourSeatMatch(url, `fan${i}`)));
  if (!(await waitFor(async () => (await metrics(url)).openSubscriptions === 0, 10_000, 100)))
    console.warn('fan-out: latency-phase subscriptions still open');
  await sleep(1000);
  const floor = await Floor.start();
  const before = await metrics(url);
  const sockets = FANOUT.flatMap((n, i) => watchersOf(matches[i], n));
  const opened = await openWatchers(
    url,
    sockets,
    FANOUT.flatMap((n) => floor.sockets(`floor${n}`, n)),
  );
  await sleep(1000);
  const after = await metrics(url);
  const perConn = (after.rssBytes - before.rssBytes) / Math.max(1, opened.held);
  console.log(
    `fan-out: ${opened.held} of ${sockets.length} subscriptions held (${opened.failed} failed${opened.firstError ? `, e.g. ${opened.firstError}` : ''}) ` +
      `in ${fmt(opened.seconds)}s, over ${FANOUT.length} matches (${FANOUT.join(', ')} watchers; per match 4 seats + anonymous spectators, two documents); ` +
      `server RSS +${fmt((after.rssBytes - before.rssBytes) / 2 ** 20)} MB, ${fmt(perConn / 1024)} KB per connection`,
  );
  const figures: Record<string, number> = {};
  for (const [i, n] of FANOUT.entries()) {
    const lasts: number[] = [];
    let incomplete = 0;
    for (let k = 0; k < FANOUT_MOVES; k++) {
      const r = await moveAndWait(url, opened.fleet, matches[i]);
      if (Number.isNaN(r.lastMs)) incomplete++;
      else lasts.push(r.lastMs);
      await sleep(200);
    }
    // The floor, interleaved with the moves: the same number of sockets written by a bare ws loop.
    const floors: number[] = [];
    for (let k = 0; k < FANOUT_MOVES; k++) {
      floors.push(await floor.broadcast(opened.fleet, `floor${n}`));
      await sleep(200);
    }
    const s = sorted(lasts);
    const median = percentile(s, 50);
    const floorMedian = percentile(sorted(floors.filter((f) => !Number.isNaN(f))), 50);
    const target = FANOUT_TARGET_MS[n];
    console.log(
      `fan-out to ${n} watchers of one match: last delivery after the commit-ack, over ${FANOUT_MOVES} moves: median ${fmt(median, 1)} ms, ` +
        `min ${fmt(s[0] ?? NaN, 1)} ms, max ${fmt(s.at(-1) ?? NaN, 1)} ms${incomplete ? `, ${incomplete} move(s) not delivered to all within 30 s` : ''}` +
        (target ? ` (target ≤ ${target} ms) — ${verdict(median <= target && incomplete === 0)}` : ''),
    );
    console.log(
      `  floor, same run: a bare ws server writing one ${FLOOR_BYTES}-byte message to ${n} sockets of the same holders: last receipt median ${fmt(floorMedian, 1)} ms; ` +
        `fan-out ÷ floor = ${fmt(median / floorMedian, 2)}`,
    );
    figures[`subs${n}LastMs`] = median;
    figures[`subs${n}FloorMs`] = floorMedian;
    figures[`subs${n}FloorRatio`] = median / floorMedian;
  }
  await opened.fleet.close();
  floor.stop();
  await waitFor(async () => (await metrics(url)).openSubscriptions === 0, 15_000, 200);
  return figures;
}

async function main(): Promise<void> {
  const t0 = now();
  const db = await benchDatabase();
  // Every connection of this run comes from 127.0.0.1: the per-address cap would stop the idle
  // phase at WS_MAX_SOCKETS_PER_ADDRESS, and this measures what one process holds.
  const total = FANOUT.reduce((a, b) => a + b, 0);
  const server = await startServerProcess(db.url, { WS_MAX_SOCKETS_PER_ADDRESS: String(total + 1_000) });
  // Bounded run: if anything hangs, stop the server and database and exit anyway.
  const timer = watchdog('bench:subscriptions', 900_000, server, db);
  try {
    console.log(`bench:subscriptions — ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}, server pid ${server.child.pid}`);
    const latency = await latencyPhase(server.url);
    const fanout = await fanoutPhase(server.url);
    report({ ...latency, ...fanout });
  } finally {
    await server.stop();
    await db.stop();
    clearTimeout(timer);
  }
  console.log(`done in ${fmt((now() - t0) / 1000, 0)}s`);
}

await main();
process.exit(0);
