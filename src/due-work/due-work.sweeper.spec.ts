import { loadConfig } from '../config/config.js';
import type { DueWorkKind } from './due-work-kind.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { parsePrometheus, sum } from '../../bench/support/prometheus.js';
import { DueWorkSweeper } from './due-work.sweeper.js';
import { eventually } from '../../test/support/eventually.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `ok` holds (on a loaded machine the same work takes longer); the deadline only bounds a failure. */
const until = (ok: () => boolean) => eventually(ok, Boolean, 'the condition', 10_000);

/** A run that lasts until the test lets it end: "slow" without a race against the clock. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { done, release };
}

/** A kind with `due` items; each run takes `runMs`, or lasts until `runs` settles. Records what the sweeper asked of it. */
function kindWith(due: number, runMs: number | Promise<void>) {
  const log = { claims: [] as number[], started: 0, finished: 0, concurrentClaims: 0, maxConcurrentClaims: 0 };
  let left = due;
  const kind: DueWorkKind = {
    name: 'test',
    async claim(limit) {
      log.concurrentClaims++;
      log.maxConcurrentClaims = Math.max(log.maxConcurrentClaims, log.concurrentClaims);
      await sleep(1);
      const n = Math.min(limit, left);
      left -= n;
      log.claims.push(n);
      log.concurrentClaims--;
      return Array.from({ length: n }, (_, i) => `k${left + i}`);
    },
    async run() {
      log.started++;
      await (typeof runMs === 'number' ? sleep(runMs) : runMs);
      log.finished++;
    },
  };
  return { kind, log };
}

function sweeper(env: Record<string, string>) {
  return new DueWorkSweeper(loadConfig({ SWEEP_INTERVAL_MS: '60000', SWEEP_BATCH_SIZE: '3', ...env }));
}

describe('DueWorkSweeper', () => {
  it('sweeps at boot and drains a backlog batch after batch without waiting for the interval', async () => {
    const s = sweeper({});
    const { kind, log } = kindWith(8, 1);
    s.register(kind);
    s.onApplicationBootstrap();
    await until(() => log.finished === 8);
    await s.onModuleDestroy();
    expect(log.finished).toBe(8);
    expect(log.claims).toEqual([3, 3, 2]); // full batches sweep again at once; a partial one waits for the interval
    expect(log.maxConcurrentClaims).toBe(1); // sweeps never overlap
  });

  it('sweeps the kinds side by side: a slow kind does not hold up another', async () => {
    const s = sweeper({});
    const slowRun = held();
    const slow = kindWith(1, slowRun.done);
    const quick = kindWith(3, 1);
    s.register(slow.kind);
    s.register(quick.kind);
    s.onApplicationBootstrap();
    await until(() => quick.log.finished === 3);
    // The quick kind's items ran while the slow kind's one item was still running.
    expect({ quick: quick.log.finished, slow: [slow.log.started, slow.log.finished] }).toEqual({ quick: 3, slow: [1, 0] });
    slowRun.release();
    await s.onModuleDestroy();
    expect(slow.log.finished).toBe(1);
  });

  it('sweeps each kind on its own timer: a kind slow sweep after sweep does not delay the next sweep of another', async () => {
    const s = sweeper({ SWEEP_INTERVAL_MS: '50' });
    // A receiver that never answers while the test runs, and always has one more due.
    const slowRun = held();
    const slow = kindWith(1_000, slowRun.done);
    let quickClaims = 0;
    s.register(slow.kind);
    s.register({
      name: 'clocks',
      claim: async () => (quickClaims++, []),
      run: async () => {},
    });
    s.onApplicationBootstrap();
    // Every 50 ms while the slow kind's first batch is still running: sweeps go on, not 1.
    await until(() => quickClaims >= 4);
    expect({ slowStarted: slow.log.started, slowFinished: slow.log.finished }).toEqual({ slowStarted: 3, slowFinished: 0 });
    slowRun.release();
    await s.onModuleDestroy();
  });

  it('on shutdown claims nothing more and waits for the work in flight', async () => {
    const s = sweeper({});
    const { kind, log } = kindWith(3, 200);
    s.register(kind);
    s.onApplicationBootstrap();
    while (log.started < 3) await sleep(5);
    await s.onModuleDestroy();
    expect(log.finished).toBe(3);
    const claims = log.claims.length;
    await sleep(50);
    expect(log.claims.length).toBe(claims);
  });

  it('keeps sweeping after a failed claim (the database away for a moment)', async () => {
    const s = sweeper({ SWEEP_INTERVAL_MS: '50' });
    let calls = 0;
    s.register({
      name: 'flaky',
      claim: async () => {
        if (++calls === 1) throw new Error('connection refused');
        return [];
      },
      run: async () => {},
    });
    s.onApplicationBootstrap();
    while (calls < 3) await sleep(10);
    await s.onModuleDestroy();
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  it('records how late each claimed item was, by kind, when the kind tells its due time', async () => {
    const config = loadConfig({ SWEEP_INTERVAL_MS: '60000', METRICS: 'true', METRICS_TOKEN: 'a-metrics-token-of-enough-length' });
    const metrics = new MetricsService(config);
    const s = new DueWorkSweeper(config, metrics);
    const ran: string[] = [];
    let left = 2;
    s.register({
      name: 'late',
      claim: () => Promise.resolve(left-- > 0 ? [{ key: 'a', lateMs: 1500 }, 'b'] : []),
      run: (key) => Promise.resolve(void ran.push(key)),
    });
    s.onApplicationBootstrap();
    while (ran.length < 2) await sleep(5);
    await s.onModuleDestroy();
    const samples = parsePrometheus(await metrics.text());
    expect(sum(samples, 'dominoes_due_work_lateness_seconds_count', { kind: 'late' })).toBe(1);
    expect(sum(samples, 'dominoes_due_work_lateness_seconds_sum', { kind: 'late' })).toBe(1.5);
  });

  it('backs off an item whose run throws every time, while its batch mates run on; each failure counted', async () => {
    const config = loadConfig({
      SWEEP_INTERVAL_MS: '50',
      SWEEP_BATCH_SIZE: '3',
      SWEEP_LEASE_MS: '10000',
      METRICS: 'true',
      METRICS_TOKEN: 'a-metrics-token-of-enough-length',
    });
    const metrics = new MetricsService(config);
    const s = new DueWorkSweeper(config, metrics);
    const runs = { poisoned: 0, healthy: 0 };
    let claims = 0;
    const released: string[] = [];
    s.register({
      name: 'poisoned',
      // Every claim finds both due again, as if each lease had just ended: only the back-off holds the poisoned one.
      claim: () => Promise.resolve(void claims++).then(() => ['poisoned', 'healthy']),
      release: (key) => void released.push(key),
      run: (key) => {
        if (key === 'healthy') return Promise.resolve(void runs.healthy++);
        runs.poisoned++;
        return Promise.reject(new Error('this item always fails'));
      },
    });
    s.onApplicationBootstrap();
    await until(() => runs.healthy >= 12); // about 600 ms: a dozen claims
    await s.onModuleDestroy();
    // Its first failure keeps it unrun here for one lease (10 s), however often it is claimed meanwhile,
    // and each claim it is not run for is handed back to the kind (what the claim kept is forgotten).
    expect(runs.poisoned).toBe(1);
    expect(released).toEqual(Array(claims - 1).fill('poisoned'));
    const samples = parsePrometheus(await metrics.text());
    expect(sum(samples, 'dominoes_due_work_failures_total', { kind: 'poisoned' })).toBe(1);
  });

  it("counts a failed item's back-off from its claim, as its lease: a run that took long is retried when the lease ends", async () => {
    const s = new DueWorkSweeper(loadConfig({ SWEEP_INTERVAL_MS: '50', SWEEP_BATCH_SIZE: '3', SWEEP_LEASE_MS: '2000' }));
    const starts: number[] = [];
    s.register({
      name: 'slow failure',
      claim: () => Promise.resolve(['slow']),
      // Fails after 1.5 s: counted from the failure, the back-off would hold it until 3.5 s after the first start.
      run: async () => {
        starts.push(Date.now());
        if (starts.length === 1) await sleep(1_500);
        throw new Error('failed, slowly');
      },
    });
    s.onApplicationBootstrap();
    await until(() => starts.length >= 2);
    await s.onModuleDestroy();
    expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(2000);
    expect(starts[1] - starts[0]).toBeLessThan(3000);
  });
});

describe('DueWorkSweeper with a kind that sets its concurrency', () => {
  /** Items whose run takes `runMs(key)` ms, or lasts until it settles; records the most that ran at once and what each claim asked for. */
  function pooled(due: number, concurrency: number, runMs: (key: string) => number | Promise<void>) {
    const log = { limits: [] as number[], claimedAt: [] as number[], running: 0, maxRunning: 0, finished: [] as string[] };
    let next = 0;
    const kind: DueWorkKind = {
      name: 'pooled',
      concurrency,
      async claim(limit) {
        log.limits.push(limit);
        log.claimedAt.push(Date.now());
        const keys = Array.from({ length: Math.min(limit, due - next) }, (_, i) => `k${next + i}`);
        next += keys.length;
        return keys;
      },
      async run(key) {
        log.running++;
        log.maxRunning = Math.max(log.maxRunning, log.running);
        const ms = runMs(key);
        await (typeof ms === 'number' ? sleep(ms) : ms);
        log.running--;
        log.finished.push(key);
      },
    };
    return { kind, log };
  }

  it('waits for a batch only briefly, then claims into the free slots: a slow item holds one slot, not the sweep', async () => {
    const s = sweeper({ SWEEP_BATCH_SIZE: '3', SWEEP_INTERVAL_MS: '100' });
    // The first item runs until released (a receiver that never answers); the other 20 take 1 ms each.
    const slowRun = held();
    const { kind, log } = pooled(21, 3, (key) => (key === 'k0' ? slowRun.done : 1));
    s.register(kind);
    s.onApplicationBootstrap();
    await until(() => log.finished.length >= 20);
    expect({ finished: log.finished.length, slowDone: log.finished.includes('k0') }).toEqual({ finished: 20, slowDone: false });
    expect(log.maxRunning).toBeLessThanOrEqual(3);
    expect(Math.max(...log.limits)).toBeLessThanOrEqual(3); // a claim never asks for more than the free slots
    // Shutdown waits for the item still running: it ends only once the item has.
    let ended = false;
    const stopped = s.onModuleDestroy().then(() => (ended = true));
    await sleep(50);
    expect(ended).toBe(false);
    slowRun.release();
    await stopped;
    expect(log.finished).toContain('k0');
  });

  it('drains a backlog queued behind a slow item batch after batch, not a batch an interval', async () => {
    const s = sweeper({ SWEEP_BATCH_SIZE: '3', SWEEP_INTERVAL_MS: '5000' });
    // The first item claimed runs until released (a receiver taking its whole timeout); 20 quick ones are due behind it.
    const slowRun = held();
    const { kind, log } = pooled(21, 6, (key) => (key === 'k0' ? slowRun.done : 1));
    s.register(kind);
    const started = Date.now();
    s.onApplicationBootstrap();
    await until(() => log.finished.length >= 20);
    // Waiting up to an interval for the first batch's slow item would hold the 20 for 5 s.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(log.finished).not.toContain('k0');
    slowRun.release();
    await s.onModuleDestroy();
  });

  it("sweeps again when a batch that outlasted the patience ends: one owner's next batch does not wait an interval", async () => {
    const s = sweeper({ SWEEP_BATCH_SIZE: '3', SWEEP_INTERVAL_MS: '3000' });
    // One owner, capped at 3 in flight (as the webhooks' claim caps an owner), each item 400 ms: a
    // claim made while its batch runs comes back empty, though 9 are due.
    let next = 0;
    let running = 0;
    const finished: number[] = [];
    const kind: DueWorkKind = {
      name: 'capped',
      concurrency: 10,
      async claim(limit) {
        const n = Math.min(limit, 3 - running, 9 - next);
        running += n;
        return Array.from({ length: n }, () => `k${next++}`);
      },
      async run() {
        await sleep(400);
        running--;
        finished.push(Date.now());
      },
    };
    s.register(kind);
    const started = Date.now();
    s.onApplicationBootstrap();
    await until(() => finished.length === 9);
    await s.onModuleDestroy();
    // Three batches back to back (about 1.2 s), not one an interval (over 6 s).
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('claims one interval after the last claim, not one interval after waiting for a slow batch', async () => {
    const s = sweeper({ SWEEP_BATCH_SIZE: '3', SWEEP_INTERVAL_MS: '500' });
    // One item due, slow (a receiver that never answers): each sweep waits for it a little, then goes on.
    const slowRun = held();
    const { kind, log } = pooled(1, 3, () => slowRun.done);
    s.register(kind);
    s.onApplicationBootstrap();
    await until(() => log.claimedAt.length >= 4);
    const gaps = log.claimedAt.slice(1).map((t, i) => t - log.claimedAt[i]);
    slowRun.release();
    await s.onModuleDestroy();
    // Every other owner's due work waits at most about one interval, as docs/webhooks.md says (not two: 1000 ms).
    expect(Math.max(...gaps)).toBeLessThan(800);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(490);
  });

  it('claims nothing while every slot is taken, and nothing more once stopped', async () => {
    const s = sweeper({ SWEEP_BATCH_SIZE: '10', SWEEP_INTERVAL_MS: '50' });
    const runs = held();
    const { kind, log } = pooled(100, 2, () => runs.done);
    s.register(kind);
    s.onApplicationBootstrap();
    await until(() => log.running === 2);
    await sleep(200); // four intervals
    // Two running from the first claim (of 2, the free slots), and no claim since: they are all taken.
    expect({ limits: log.limits, running: log.running }).toEqual({ limits: [2], running: 2 });
    runs.release();
    await s.onModuleDestroy();
    expect(log.finished).toHaveLength(2);
    const claims = log.limits.length;
    await sleep(100);
    expect(log.limits.length).toBe(claims);
  });
});
