/**
 * The stack's floor for bench:moves: the same clients drive `benchFloor` (a server started with
 * BENCH_FLOOR=true), an authenticated mutation doing one INSERT of a move-sized row on the same
 * pool and answering a small object. Closed loop, and shaped like a move's iteration: a move reads
 * the view first (served from memory, as a rule), then sends its command; a floor iteration reads
 * the caller (`me { id }`, authenticated, from memory), then sends the floor mutation. Only the
 * mutation is timed, as only the command is.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { BENCH_FLOOR_TABLE } from '../../src/bench-floor/bench-floor.resolver.js';
import { gql } from './harness.js';
import { REGISTER } from './operations.js';

const FLOOR = 'mutation($m: ID!, $s: Int!) { benchFloor(matchId: $m, seq: $s) { matchId seq } }';
const ME = '{ me { id } }';

export interface FloorPhase {
  mutations: number;
  seconds: number;
  latencies: number[];
}

export async function createFloorTable(dbUrl: string): Promise<void> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  await c.query(BENCH_FLOOR_TABLE);
  await c.end();
}

async function floorClient(url: string, token: string, until: number, phase: FloorPhase): Promise<void> {
  // A new match id each run: its (matchId, seq) keys never collide with an earlier run's.
  const matchId = randomUUID();
  for (let seq = 1; Date.now() < until; seq++) {
    await gql(url, ME, {}, token);
    const t0 = performance.now();
    await gql(url, FLOOR, { m: matchId, s: seq }, token);
    phase.latencies.push(performance.now() - t0);
    phase.mutations++;
  }
}

/** The floor's clients, registered; `run` drives them all until a time, adding to a phase. */
export async function startFloor(url: string, clients: number, id: number): Promise<{ run(until: number, phase: FloorPhase): Promise<void> }> {
  const tokens = await Promise.all(
    Array.from(
      { length: clients },
      async (_, i) => (await gql<{ registerPlayer: { token: string } }>(url, REGISTER, { n: `floor${id}-${i}` })).registerPlayer.token,
    ),
  );
  return { run: (until, phase) => Promise.all(tokens.map((t) => floorClient(url, t, until, phase))).then(() => undefined) };
}
