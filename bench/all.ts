/**
 * `npm run bench`: every benchmark, briefly, one after another (each in its own process), then one
 * table of figure, goal, now and whether it holds, also written to bench-results.json. Each
 * benchmark's last `BENCH_RESULT {json}` line (bench/support/result.ts) gives its figures; a
 * figure with no goal here is listed with none. Short settings below; the environment overrides
 * them (e.g. BENCH_SECONDS=8 for the full bench:moves phases). Figures from a short, shared-machine
 * run are indicative: the README's numbers come from the full runs.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { RESULT_PREFIX } from './support/result.js';

interface Goal {
  /** what the figure means, for the table */
  label: string;
  goal?: { atLeast: number } | { atMost: number };
}

const BENCHES: { name: string; env: Record<string, string> }[] = [
  { name: 'engine', env: { BENCH_MS: '500' } },
  { name: 'moves', env: { BENCH_SECONDS: '3', BENCH_WARMUP_SECONDS: '10' } },
  { name: 'commit', env: { BENCH_SECONDS: '4' } },
  { name: 'subscriptions', env: { BENCH_SECONDS: '5' } },
  { name: 'history', env: { BENCH_SIZES: '1000,10000' } },
  { name: 'bots', env: { BENCH_DEALS: '40' } },
  { name: 'bot-load', env: { BENCH_SECONDS: '4' } },
  { name: 'connections', env: {} },
  { name: 'cluster', env: { BENCH_SECONDS: '4', BENCH_CLIENTS: '8', BENCH_ROUNDS: '1', BENCH_WARMUP_SECONDS: '10' } },
  { name: 'webhooks', env: { BENCH_MESSAGES: '1000', BENCH_SECONDS: '4', BENCH_BACKLOG: '30000' } },
  { name: 'sweeper', env: { BENCH_MATCHES: '2000', BENCH_SECONDS: '3' } },
];

/** The goals of the README's performance section, by figure name. */
const GOALS: Record<string, Goal> = {
  floorRatio8: { label: 'moves/s ÷ floor mutations/s, 8 clients', goal: { atLeast: 0.7 } },
  floorRatio1: { label: 'moves/s ÷ floor mutations/s, 1 client' },
  cpuFloorRatio8: { label: 'server CPU per floor iteration ÷ per move, 8 clients' },
  serverCpuPerMoveUs8: { label: 'server CPU per move iteration (µs), 8 clients' },
  pgCpuPerMoveUs8: { label: "PostgreSQL backends' CPU per move iteration (µs), 8 clients" },
  pgCpuPerFloorUs8: { label: "PostgreSQL backends' CPU per floor iteration (µs), 8 clients" },
  rawPgRatio8: { label: 'moves/s ÷ raw-pg tx/s, 8 clients', goal: { atLeast: 0.3 } },
  movePgCpuRatio: { label: "PostgreSQL's CPU for a move's commit ÷ for the floor's INSERT, alone" },
  barePgCpuRatio: { label: 'the same for the least a move can write (version and Move row)' },
  clusterRatio: { label: 'moves/s, WORKERS=2 ÷ one process' },
  rawPgRatio1: { label: 'moves/s ÷ raw-pg tx/s, 1 client' },
  p99Ms8: { label: 'command p99 (ms), 8 clients, round ends included', goal: { atMost: 35 } },
  movesPerSec8: { label: 'moves/s, 8 clients' },
  subs2500LastMs: { label: 'last of 2,500 subscribers after the commit-ack (ms)', goal: { atMost: 50 } },
  subs2500FloorRatio: { label: 'the same ÷ a bare ws server writing to as many sockets' },
  subs10000LastMs: { label: 'last of 10,000 subscribers after the commit-ack (ms)', goal: { atMost: 150 } },
  subs10000FloorRatio: { label: 'the same ÷ a bare ws server writing to as many sockets' },
  idleBytesPerConn: { label: 'bytes per idle graphql-ws connection', goal: { atMost: 20_480 } },
  idleConnections: { label: 'idle graphql-ws connections held by one process', goal: { atLeast: 18_000 } },
  historyWorstP99Ms: { label: 'worst history p99 (ms) at the larger size', goal: { atMost: 20 } },
  historyWorstP99Ratio: { label: 'worst history p99 ratio, larger ÷ smaller size', goal: { atMost: 2 } },
  floodPageP99RatioGated: { label: 'history page p99 under a count flood ÷ alone, counts one at a time' },
  floodPageP99RatioUngated: { label: 'history page p99 under a count flood ÷ alone, counts all at once' },
  backlogOverPlainDeliveries: { label: 'webhook deliveries/s out of a backlog over 1,000 endpoints ÷ with no backlog' },
};

function run(name: string, env: Record<string, string>): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    console.log(`\n── bench:${name} ──`);
    const child = spawn(process.execPath, [`dist/bench/${name}.js`], { env: { ...env, ...process.env }, stdio: ['ignore', 'pipe', 'inherit'] });
    const figures: Record<string, number> = {};
    createInterface({ input: child.stdout }).on('line', (line) => {
      console.log(line);
      if (line.startsWith(RESULT_PREFIX)) Object.assign(figures, JSON.parse(line.slice(RESULT_PREFIX.length)) as Record<string, number>);
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(figures) : reject(new Error(`bench:${name} exited with ${code}`))));
  });
}

const digits = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3));

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const rows: { bench: string; figure: string; label: string; goal: string; now: number; ratio: number | null; holds: boolean | null }[] = [];
  for (const { name, env } of BENCHES.filter((b) => only.length === 0 || only.includes(b.name))) {
    const figures = await run(name, env).catch((e: Error) => (console.error(e.message), {}));
    for (const [figure, now] of Object.entries(figures)) {
      const g = GOALS[figure]?.goal;
      const target = g && ('atLeast' in g ? g.atLeast : g.atMost);
      const holds = g ? ('atLeast' in g ? now >= g.atLeast : now <= g.atMost) : null;
      rows.push({
        bench: name,
        figure,
        label: GOALS[figure]?.label ?? '',
        goal: g ? `${'atLeast' in g ? '≥' : '≤'} ${target}` : '',
        now,
        ratio: target ? now / target : null,
        holds,
      });
    }
  }
  console.log('\n── summary ──');
  console.log(`${'bench'.padEnd(14)}${'figure'.padEnd(36)}${'goal'.padStart(10)}${'now'.padStart(12)}${'ratio'.padStart(8)}  holds`);
  for (const r of rows)
    console.log(
      `${r.bench.padEnd(14)}${r.figure.padEnd(36)}${r.goal.padStart(10)}${digits(r.now).padStart(12)}${(r.ratio === null ? '' : r.ratio.toFixed(2)).padStart(8)}  ${r.holds === null ? '' : r.holds ? 'yes' : 'NO'}`,
    );
  const out = { at: new Date().toISOString(), cores: availableParallelism(), loadAverage1m: loadavg()[0], rows };
  await writeFile('bench-results.json', JSON.stringify(out, null, 2) + '\n');
  console.log(`\nwritten to bench-results.json (load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores)`);
}

await main();
