/**
 * Where a phase's tail latency can go, from the server's own GET /metrics scraped right before and
 * right after it: event-loop delay (perf_hooks.monitorEventLoopDelay, reset at each scrape, so the
 * second scrape covers the phase alone), waits for a pooled connection, GC pauses, the command
 * histogram as the server saw it, and the server's CPU time.
 */
import { fmt, scrape } from './harness.js';
import { growth, quantileBetween, sum, type Sample } from './prometheus.js';

export interface Tails {
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  poolWaitMeanMs: number;
  poolWaitP99Ms: number;
  poolWaits: number;
  gcMs: number;
  gcCount: number;
  connectionsOpened: number;
  poolWaitsOver1Ms: number;
  serverPlayTileP99Ms: number;
  /** the server process's CPU time (user + system) over the phase, from process_cpu_seconds_total */
  cpuSeconds: number;
  /** of which in the kernel (process_cpu_system_seconds_total): socket writes and reads, mostly */
  cpuSystemSeconds: number;
  seconds: number;
}

export async function tailsStart(url: string): Promise<{ samples: Sample[]; t0: number }> {
  return { samples: await scrape(url), t0: performance.now() };
}

export async function tailsEnd(url: string, start: { samples: Sample[]; t0: number }): Promise<Tails> {
  const after = await scrape(url);
  const before = start.samples;
  const waits = growth(before, after, 'dominoes_db_pool_wait_seconds_count');
  return {
    eventLoopP99Ms: sum(after, 'nodejs_eventloop_lag_p99_seconds') * 1000,
    eventLoopMaxMs: sum(after, 'nodejs_eventloop_lag_max_seconds') * 1000,
    poolWaitMeanMs: waits ? (growth(before, after, 'dominoes_db_pool_wait_seconds_sum') / waits) * 1000 : 0,
    poolWaitP99Ms: quantileBetween(before, after, 'dominoes_db_pool_wait_seconds', 0.99) * 1000,
    poolWaits: waits,
    gcMs: growth(before, after, 'nodejs_gc_duration_seconds_sum') * 1000,
    gcCount: growth(before, after, 'nodejs_gc_duration_seconds_count'),
    connectionsOpened: growth(before, after, 'dominoes_db_pool_connections_opened_total'),
    poolWaitsOver1Ms: waits - growth(before, after, 'dominoes_db_pool_wait_seconds_bucket', { le: '0.001' }),
    serverPlayTileP99Ms: quantileBetween(before, after, 'dominoes_command_duration_seconds', 0.99, { command: 'playTile' }) * 1000,
    cpuSeconds: growth(before, after, 'process_cpu_seconds_total'),
    cpuSystemSeconds: growth(before, after, 'process_cpu_system_seconds_total'),
    seconds: (performance.now() - start.t0) / 1000,
  };
}

/**
 * The tails of several slices of one phase taken as one: counts and times add up, a mean is
 * weighted by its count, and a percentile or maximum is the worst slice's (an upper bound).
 */
export function mergeTails(slices: readonly Tails[]): Tails {
  const total = (k: keyof Tails) => slices.reduce((a, t) => a + t[k], 0);
  const worst = (k: keyof Tails) => Math.max(...slices.map((t) => t[k]));
  const waits = total('poolWaits');
  return {
    eventLoopP99Ms: worst('eventLoopP99Ms'),
    eventLoopMaxMs: worst('eventLoopMaxMs'),
    poolWaitMeanMs: waits ? slices.reduce((a, t) => a + t.poolWaitMeanMs * t.poolWaits, 0) / waits : 0,
    poolWaitP99Ms: worst('poolWaitP99Ms'),
    poolWaits: waits,
    gcMs: total('gcMs'),
    gcCount: total('gcCount'),
    connectionsOpened: total('connectionsOpened'),
    poolWaitsOver1Ms: total('poolWaitsOver1Ms'),
    serverPlayTileP99Ms: worst('serverPlayTileP99Ms'),
    cpuSeconds: total('cpuSeconds'),
    cpuSystemSeconds: total('cpuSystemSeconds'),
    seconds: total('seconds'),
  };
}

export function describeTails(t: Tails): string {
  return (
    `server side: event-loop delay p99 ${fmt(t.eventLoopP99Ms, 1)} ms, max ${fmt(t.eventLoopMaxMs, 1)} ms; ` +
    `pool wait mean ${fmt(t.poolWaitMeanMs, 3)} ms, p99 ≤ ${fmt(t.poolWaitP99Ms, 2)} ms, ${fmt(t.poolWaitsOver1Ms, 0)} waits over 1 ms, ${fmt(t.connectionsOpened, 0)} connections opened; ` +
    `GC ${fmt(t.gcCount, 0)} pauses, ${fmt(t.gcMs, 0)} ms in ${fmt(t.seconds, 1)} s (${fmt(t.gcMs / 10 / t.seconds, 1)} % of the time); ` +
    `playTile p99 ≤ ${fmt(t.serverPlayTileP99Ms, 1)} ms (histogram bucket)`
  );
}
