import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { DueWorkKind } from './due-work-kind.js';

/**
 * Every instance runs one sweeper: at boot and every SWEEP_INTERVAL_MS it claims up to
 * SWEEP_BATCH_SIZE due items of each registered kind and runs them, the kinds side by side.
 * Sweeps never overlap; a full batch sweeps again at once, so a backlog (after a crash) drains
 * without waiting for the timer.
 * On shutdown it stops claiming and lets the work in flight finish.
 */
@Injectable()
export class DueWorkSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DueWorkSweeper.name);
  private readonly kinds: DueWorkKind[] = [];
  private readonly settings: AppConfig['sweep'];
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
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
    this.schedule(0);
  }

  /** Stops sweeping and waits for the sweep in flight (its items' commands included). */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.sweeping;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.sweeping = this.sweep()
        .catch((e: unknown) => {
          // The database may be down for a moment: the next sweep tries again.
          this.logger.warn(`sweep failed: ${e instanceof Error ? e.message : String(e)}`);
          return false;
        })
        .then((full) => this.schedule(full ? 0 : this.settings.intervalMs))
        .finally(() => (this.sweeping = undefined));
    }, delayMs);
    this.timer.unref();
  }

  /**
   * One sweep over every kind, the kinds side by side: a slow kind (a webhook receiver taking its
   * full timeout) must not hold up another (a bot to move, a clock run out). True when some kind
   * had a full batch (more may be due).
   */
  private async sweep(): Promise<boolean> {
    const full = await Promise.all(this.kinds.map((kind) => this.sweepKind(kind)));
    return full.some(Boolean);
  }

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
