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
  const matchId = randomUUID();
  for (let seq = 1; Date.now() < until; seq++) {
    await gql(url, ME, {}, token);
    const t0 = performance.now();
    await gql(url, FLOOR, { m: matchId, s: seq }, token);
    phase.latencies.push(performance.now() - t0);
    phase.mutations++;
  }
}

/**
 * Registers the floor's clients and warms the server up on the floor mutation, as the moves are;
 * `measure` runs right before and after the measured phase (bench:moves scrapes the server's
 * metrics there, so they cover the measured phase alone).
 */
export async function runFloor<T>(
  url: string,
  clients: number,
  seconds: number,
  id: number,
  measure: { before(): Promise<T>; after(started: T): Promise<void> } = { before: async () => undefined as T, after: async () => {} },
): Promise<FloorPhase> {
  const tokens = await Promise.all(
    Array.from(
      { length: clients },
      async (_, i) => (await gql<{ registerPlayer: { token: string } }>(url, REGISTER, { n: `floor${id}-${i}` })).registerPlayer.token,
    ),
  );
  const warm: FloorPhase = { mutations: 0, seconds: 0, latencies: [] };
  await Promise.all(tokens.map((t) => floorClient(url, t, Date.now() + 1000, warm)));
  const started = await measure.before();
  const phase: FloorPhase = { mutations: 0, seconds, latencies: [] };
  const start = performance.now();
  await Promise.all(tokens.map((t) => floorClient(url, t, Date.now() + seconds * 1000, phase)));
  phase.seconds = (performance.now() - start) / 1000;
  await measure.after(started);
  phase.latencies.sort((a, b) => a - b);
  return phase;
}
