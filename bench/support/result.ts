/**
 * The one machine-readable line every benchmark prints last: `BENCH_RESULT {"figure": number, …}`.
 * `npm run bench` (bench/all.ts) runs each benchmark and collects these lines into one table.
 * Figures are plain numbers under stable names (e.g. `movesPerSec8`, `p99Ms8`); a benchmark may
 * call it more than once, later names overwriting earlier ones. The goals are keyed by name in
 * bench/all.ts; bench:subscriptions' are `lastDeliveryMs2500`, `lastDeliveryMs10000` (the last
 * subscriber's delivery after the commit-ack), `idleConnections` (held by one process) and
 * `idleConnectionBytes` (RSS per idle connection).
 */
export const RESULT_PREFIX = 'BENCH_RESULT ';

export function report(figures: Record<string, number>): void {
  console.log(RESULT_PREFIX + JSON.stringify(figures));
}
