import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { DueWorkKind } from './due-work-kind.js';

/**
 * After an item's n-th failure in a row here, it is not run here again until
 * SWEEP_LEASE_MS × 2^(n−1) after the claim it failed in (so the first retry comes as before, when
 * that lease ends), up to `maxMs`; at most `remembered` failing items per kind are kept (the
 * oldest forgotten first). Per instance: another instance that claims the item counts its own
 * failures.
 */
export const FAILURE_BACKOFF = { maxMs: 10 * 60_000, remembered: 10_000 };

/**
 * The share of SWEEP_INTERVAL_MS a sweep of a kind with a `concurrency` waits for its batch: long
 * enough for quick items (a receiver answering in milliseconds) to free their slots before the
 * next claim, short enough that a backlog behind a slow one (another owner's receiver taking
 * seconds) drains batch after batch, not a batch an interval.
 */
export const BATCH_PATIENCE = 0.1;

interface Failing {
  failures: number;
  notBefore: number;
}

/**
 * Every instance runs one sweeper: at boot and every SWEEP_INTERVAL_MS it claims up to
 * SWEEP_BATCH_SIZE due items of each registered kind and runs them. Each kind sweeps on its own
 * timer: a slow kind (a webhook receiver taking its full timeout, sweep after sweep) never holds
 * up another (a bot to move, a clock run out). A kind's sweeps never overlap; a full batch sweeps
 * that kind again at once, so a backlog (after a crash) drains without waiting for the timer.
 * A kind with a `concurrency` may have that many items running: its sweep waits for its batch
 * at most a tenth of an interval (BATCH_PATIENCE), then claims again into the free slots, so one
 * slow item holds one slot, not the sweep, nor the backlog queued behind it.
 * An item whose run throws falls due again when its lease ends; one that fails again and again
 * is run here less and less often (FAILURE_BACKOFF): claimed at each lease's end as before, but
 * run only once its back-off has passed, so a poisoned item costs a log line every few minutes,
 * not every lease.
 * On shutdown it stops claiming and lets the work in flight finish.
 */
@Injectable()
export class DueWorkSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DueWorkSweeper.name);
  private readonly kinds: DueWorkKind[] = [];
  private readonly settings: AppConfig['sweep'];
  private readonly timers = new Map<DueWorkKind, NodeJS.Timeout>();
  private readonly sweeping = new Map<DueWorkKind, Promise<void>>();
  /** The items running of each kind with a `concurrency` (a batch kind's are awaited by its sweep). */
  private readonly running = new Map<DueWorkKind, Set<Promise<void>>>();
  /** Kinds whose slots are all taken: the next item to finish sweeps them again. */
  private readonly waitingForSlot = new Set<DueWorkKind>();
  /** Per kind, the items whose last runs here failed, oldest first (see FAILURE_BACKOFF). */
  private readonly failing = new Map<DueWorkKind, Map<string, Failing>>();
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    this.settings = config.sweep;
  }

  /** Feature modules register their kinds when they start (before the first sweep). */
  register(kind: DueWorkKind): void {
    this.kinds.push(kind);
    this.failing.set(kind, new Map());
    if (kind.concurrency !== undefined) this.running.set(kind, new Set());
  }

  onApplicationBootstrap(): void {
    for (const kind of this.kinds) this.schedule(kind, 0);
  }

  /** Stops sweeping and waits for the sweeps in flight and the items they started. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.timers.forEach((timer) => clearTimeout(timer));
    await Promise.all(this.sweeping.values());
    await Promise.all([...this.running.values()].flatMap((items) => [...items]));
  }

  private schedule(kind: DueWorkKind, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      const startedAt = Date.now();
      const sweep = this.sweepKind(kind)
        .catch((e: unknown) => {
          // Whatever went wrong, the kind is swept again at the next interval.
          this.logger.error(`sweep of ${kind.name} failed: ${e instanceof Error ? e.stack : String(e)}`);
          return false;
        })
        .then((full) => this.next(kind, full, startedAt))
        .finally(() => this.sweeping.delete(kind));
      this.sweeping.set(kind, sweep);
    }, delayMs);
    timer.unref();
    this.timers.set(kind, timer);
  }

  /**
   * After a sweep: a full one goes again at once, unless every slot is taken (then the next item
   * to finish starts it); any other goes again one interval after it started (or sooner: when a
   * batch that outlasted its sweep's patience ends, see batchEnded). Counted from its start, not
   * its end: a sweep that waited for a slow batch must not make everything else due wait longer.
   * Decided in the same turn as the check of the slots, so an item finishing in between cannot be
   * missed.
   */
  private next(kind: DueWorkKind, full: boolean, startedAt: number): void {
    if (full && this.freeSlots(kind) === 0) this.waitingForSlot.add(kind);
    else this.schedule(kind, full ? 0 : Math.max(0, startedAt + this.settings.intervalMs - Date.now()));
  }

  /**
   * A batch that outlasted its sweep's patience has ended: sweep again now rather than at the
   * interval. A claim made while it ran may have come back short only because those items held
   * their owners' places (the webhooks' per-owner cap): one busy owner's next batch goes when its
   * last one is done, as when the sweep waited for it, not an interval later. Nothing happens
   * while a sweep runs (it schedules its own next) or once stopped.
   */
  private batchEnded(kind: DueWorkKind): void {
    if (this.stopped || this.sweeping.has(kind)) return;
    clearTimeout(this.timers.get(kind));
    this.waitingForSlot.delete(kind);
    this.schedule(kind, 0);
  }

  /** How many items one claim may take now. */
  private freeSlots(kind: DueWorkKind): number {
    const running = this.running.get(kind);
    if (kind.concurrency === undefined || !running) return this.settings.batchSize;
    return Math.max(0, Math.min(this.settings.batchSize, kind.concurrency - running.size));
  }

  /** One sweep of one kind: true when its claim was full (more may be due). */
  private async sweepKind(kind: DueWorkKind): Promise<boolean> {
    if (this.stopped) return false;
    const limit = this.freeSlots(kind);
    if (limit === 0) return true;
    // The leases run from about now: a failed item's back-off is counted from here too.
    const claimedAt = Date.now();
    let claimed: Awaited<ReturnType<DueWorkKind['claim']>>;
    try {
      claimed = await kind.claim(limit, this.settings.leaseMs);
    } catch (e) {
      // The database may be down for a moment: the next sweep tries again.
      this.logger.warn(`sweep of ${kind.name} failed: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    }
    const claimedKeys = claimed.map((item) => {
      if (typeof item === 'string') return item;
      this.metrics?.lateness(kind.name, Math.max(0, item.lateMs) / 1000);
      return item.key;
    });
    // A failing item still in its back-off stays claimed, unrun: its lease brings it back.
    const failing = this.failing.get(kind)!;
    // Compared with the time the claim answered: a lease that ended while the claim was on its way is over.
    const now = Date.now();
    const keys = claimedKeys.filter((key) => {
      const backingOff = (failing.get(key)?.notBefore ?? 0) > now;
      if (backingOff) kind.release?.(key);
      return !backingOff;
    });
    const running = this.running.get(kind);
    if (running) {
      const items = keys.map((key) => {
        const item: Promise<void> = this.runOne(kind, key, claimedAt).finally(() => {
          running.delete(item);
          // A slot is free: a kind that was waiting for one sweeps again now.
          if (this.waitingForSlot.delete(kind)) this.schedule(kind, 0);
        });
        running.add(item);
        return item;
      });
      // The batch is waited for, as a batch kind's is (claims stay few and full), but only briefly:
      // past it a slow item keeps its slot and the sweep goes on (a full claim claims again at once).
      let patience: NodeJS.Timeout | undefined;
      let batchDone = false;
      const batch = Promise.all(items).then(() => void (batchDone = true));
      const patienceMs = this.settings.intervalMs * BATCH_PATIENCE;
      await Promise.race([batch, new Promise<void>((resolve) => (patience = setTimeout(resolve, patienceMs)))]);
      clearTimeout(patience);
      if (!batchDone) void batch.then(() => this.batchEnded(kind));
    } else {
      await Promise.all(keys.map((key) => this.runOne(kind, key, claimedAt)));
    }
    return claimedKeys.length === limit;
  }

  /** Runs one item; a failure is logged and counted, and backs the item off (it falls due again when its lease ends). */
  private async runOne(kind: DueWorkKind, key: string, claimedAt: number): Promise<void> {
    const failing = this.failing.get(kind)!;
    try {
      await kind.run(key);
      failing.delete(key);
    } catch (e) {
      const failures = (failing.get(key)?.failures ?? 0) + 1;
      const backoffMs = Math.min(FAILURE_BACKOFF.maxMs, this.settings.leaseMs * 2 ** (failures - 1));
      failing.delete(key); // re-insert: Map order is recency order
      // From the claim, as its lease: the first retry comes when the lease ends, however long the run took.
      failing.set(key, { failures, notBefore: claimedAt + backoffMs });
      if (failing.size > FAILURE_BACKOFF.remembered) failing.delete(failing.keys().next().value!);
      this.metrics?.dueWorkFailure(kind.name);
      const again = `failed ${failures} time(s) in a row here; not run here again for ${Math.round(backoffMs / 1000)} s`;
      this.logger.error(`${kind.name} ${key} ${again}: ${e instanceof Error ? e.stack : String(e)}`);
    }
  }
}
