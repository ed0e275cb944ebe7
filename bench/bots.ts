/**
 * Bot strength on duplicate deals (see bench/bots/duplicate.ts for what a deal and a win are).
 * Each pairing runs in 2-player matches and in 4-player partnerships, spread over worker threads
 * (one per core) for throughput; every move's time is measured inside its worker, around the
 * bot's decision alone, with the same budget as on the server.
 *
 *   npm run bench:bots                         # EXPERT vs GREEDY and DEFENSIVE vs GREEDY, 1,000 deals each
 *   BENCH_DEALS=200 BENCH_PAIRINGS=EXPERT:GREEDY npm run bench:bots
 *
 * One line per pairing and table, e.g.
 *   EXPERT vs GREEDY, 2 players: win rate 0.64 (95% CI 0.61-0.67), margin +12.3, move p50 8 ms p99 41 ms
 */
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { DEFAULT_SEARCH_NODES, SEARCH_TIME_SHARE, type BotStrategy } from '../src/domain/index.js';
import { runPairing, type PairingResult, type PairingTask } from './bots/duplicate.js';
import { report } from './support/result.js';

const DEALS = Number(process.env.BENCH_DEALS ?? 1000);
const PAIRINGS = (process.env.BENCH_PAIRINGS ?? 'EXPERT:GREEDY,DEFENSIVE:GREEDY').split(',').map((p) => p.split(':') as [string, string]);
const BUDGET_MS = Number(process.env.BOT_MOVE_BUDGET_MS ?? 50);
const NODES = Number(process.env.BOT_SEARCH_NODES ?? DEFAULT_SEARCH_NODES);
const WORKERS = Number(process.env.BENCH_WORKERS ?? availableParallelism());
const FIRST_SEED = Number(process.env.BENCH_SEED ?? 1);

interface WorkerTask {
  a: BotStrategy;
  b: BotStrategy;
  partnerships: boolean;
  seeds: number[];
  nodes: number;
  timeMs: number;
}

if (!isMainThread) {
  const t = workerData as WorkerTask;
  const task: PairingTask = { ...t, budget: { nodes: t.nodes, timeMs: t.timeMs, now: () => performance.now() } };
  // Unmeasured warm-up on other seeds, so the JIT has compiled the search before timing starts
  // (a server's worker is warm after its first few moves too).
  runPairing({ ...task, seeds: [1_000_001, 1_000_002] });
  parentPort?.postMessage(runPairing(task));
} else {
  await main();
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

function runInWorker(task: WorkerTask): Promise<PairingResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: task });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

async function pairing(a: string, b: string, partnerships: boolean): Promise<void> {
  const seeds = Array.from({ length: DEALS }, (_, i) => FIRST_SEED + i);
  // Interleaved slices, so each worker gets early and late seeds alike.
  const slices = Array.from({ length: WORKERS }, (_, w) => seeds.filter((_, i) => i % WORKERS === w));
  const started = performance.now();
  const parts = await Promise.all(
    slices.map((s) =>
      runInWorker({
        a: a.toLowerCase() as BotStrategy,
        b: b.toLowerCase() as BotStrategy,
        partnerships,
        seeds: s,
        nodes: NODES,
        timeMs: BUDGET_MS * SEARCH_TIME_SHARE,
      }),
    ),
  );
  const deals = parts.flatMap((p) => p.deals);
  const moveMs = parts.flatMap((p) => p.moveMs).sort((x, y) => x - y);
  const choiceMs = parts.flatMap((p) => p.choiceMs).sort((x, y) => x - y);
  const cpuMs = parts.flatMap((p) => p.cpuMs).sort((x, y) => x - y);
  const n = deals.length;
  const mean = deals.reduce((s, d) => s + d.score, 0) / n;
  const sd = Math.sqrt(deals.reduce((s, d) => s + (d.score - mean) ** 2, 0) / Math.max(1, n - 1));
  const half = (1.96 * sd) / Math.sqrt(n);
  const margin = deals.reduce((s, d) => s + d.margin, 0) / (2 * n);
  const table = partnerships ? 'partnerships' : '2 players';
  const ms = (v: number) => (v < 10 ? v.toFixed(1) : v.toFixed(0));
  console.log(
    `${a} vs ${b}, ${table}: win rate ${mean.toFixed(2)} (95% CI ${(mean - half).toFixed(2)}-${(mean + half).toFixed(2)}), ` +
      `margin ${margin >= 0 ? '+' : ''}${margin.toFixed(1)}, move p50 ${ms(percentile(moveMs, 0.5))} ms p99 ${ms(percentile(moveMs, 0.99))} ms`,
  );
  const meanMove = moveMs.reduce((s, v) => s + v, 0) / Math.max(1, moveMs.length);
  console.log(
    `  ${2 * n} matches (${n} deals × 2 seatings), ${moveMs.length} ${a} moves: mean ${meanMove.toFixed(2)} ms, max ${ms(moveMs[moveMs.length - 1] ?? 0)} ms; ` +
      `choices among 2+ plays: ${choiceMs.length}, p50 ${ms(percentile(choiceMs, 0.5))} ms p99 ${ms(percentile(choiceMs, 0.99))} ms; ` +
      `${((performance.now() - started) / 1000).toFixed(0)} s on ${WORKERS} workers`,
  );
  const name = `${a.toLowerCase()}Vs${b[0]}${b.slice(1).toLowerCase()}${partnerships ? 'Partners' : ''}`;
  report({ [`${name}WinRate`]: mean, [`${name}MoveP99Ms`]: percentile(moveMs, 0.99) });
  // With one worker the process's CPU clock is that worker's: what a move costs without the waits.
  if (WORKERS === 1)
    console.log(
      `  CPU time per ${a} move: p50 ${ms(percentile(cpuMs, 0.5))} ms p99 ${ms(percentile(cpuMs, 0.99))} ms, max ${ms(cpuMs[cpuMs.length - 1] ?? 0)} ms`,
    );
}

async function main(): Promise<void> {
  console.log(`bench:bots: ${DEALS} duplicate deals per table, search budget ${NODES} nodes and ${BUDGET_MS} ms per move, ${WORKERS} workers`);
  for (const [a, b] of PAIRINGS) {
    await pairing(a, b, false);
    await pairing(a, b, true);
  }
}
