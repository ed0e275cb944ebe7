import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { DueWorkKind } from './due-work-kind.js';

/**
 * Every instance runs one sweeper: at boot and every SWEEP_INTERVAL_MS it claims up to
 * SWEEP_BATCH_SIZE due items of each registered kind and runs them. Each kind sweeps on its own
 * timer: a slow kind (a webhook receiver taking its full timeout, sweep after sweep) never holds
 * up another (a bot to move, a clock run out). A kind's sweeps never overlap; a full batch sweeps
 * that kind again at once, so a backlog (after a crash) drains without waiting for the timer.
 * On shutdown it stops claiming and lets the work in flight finish.
 */
@Injectable()
export class DueWorkSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DueWorkSweeper.name);
  private readonly kinds: DueWorkKind[] = [];
  private readonly settings: AppConfig['sweep'];
  private readonly timers = new Map<DueWorkKind, NodeJS.Timeout>();
  private readonly sweeping = new Map<DueWorkKind, Promise<void>>();
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
  }

  onApplicationBootstrap(): void {
    for (const kind of this.kinds) this.schedule(kind, 0);
  }

  /** Stops sweeping and waits for the sweeps in flight (their items' commands included). */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.timers.forEach((timer) => clearTimeout(timer));
    await Promise.all(this.sweeping.values());
  }

  private schedule(kind: DueWorkKind, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      const sweep = this.sweepKind(kind)
        .catch((e: unknown) => {
          // Whatever went wrong, the kind is swept again at the next interval.
          this.logger.error(`sweep of ${kind.name} failed: ${e instanceof Error ? e.stack : String(e)}`);
          return false;
        })
        .then((full) => this.schedule(kind, full ? 0 : this.settings.intervalMs))
        .finally(() => this.sweeping.delete(kind));
      this.sweeping.set(kind, sweep);
    }, delayMs);
    timer.unref();
    this.timers.set(kind, timer);
  }

  /** One sweep of one kind: true when its batch was full (more may be due). */
  private async sweepKind(kind: DueWorkKind): Promise<boolean> {
    if (this.stopped) return false;
    let claimed: Awaited<ReturnType<DueWorkKind['claim']>>;
    try {
      claimed = await kind.claim(this.settings.batchSize, this.settings.leaseMs);
    } catch (e) {
      // The database may be down for a moment: the next sweep tries again.
      this.logger.warn(`sweep of ${kind.name} failed: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    }
    const keys = claimed.map((item) => {
      if (typeof item === 'string') return item;
      this.metrics?.lateness(kind.name, Math.max(0, item.lateMs) / 1000);
      return item.key;
    });
    const results = await Promise.allSettled(keys.map((key) => kind.run(key)));
    results.forEach((r, i) => {
      if (r.status === 'rejected') this.logger.error(`${kind.name} ${keys[i]}: ${r.reason instanceof Error ? r.reason.stack : String(r.reason)}`);
    });
    return keys.length === this.settings.batchSize;
  }
}
