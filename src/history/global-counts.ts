import { Inject, Injectable, Optional } from '@nestjs/common';
import pLimit, { type LimitFunction } from 'p-limit';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { MetricsService } from '../metrics/metrics.service.js';

/**
 * Counts over everyone: a `matches` list not scoped to a player that selects `totalCount`, and
 * every `leaderboard` page (it counts to rank). Each reads every row its filters pass, whatever the
 * page size: a scan that grows with the whole table, about 0.3 µs a match here, so a few hundred
 * milliseconds of a database core at a million matches. GRAPHQL_MAX_COUNTS bounds them per
 * request; this bounds them per process: at most DB_GLOBAL_COUNTS run at once and the rest wait
 * their turn here, in order, holding no connection. However many clients ask (or however often
 * one does), counts take at most that share of the database, and commands and every other read
 * keep the rest. Counts scoped to one player read that player's rows only and are not held.
 */
@Injectable()
export class GlobalCounts {
  private readonly limit: LimitFunction;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Optional() metrics?: MetricsService) {
    this.limit = pLimit(config.limits.db.globalCounts);
    if (metrics?.enabled) {
      metrics.gauge(
        'dominoes_global_counts_running',
        'Counts over every match or player running now (DB_GLOBAL_COUNTS at most).',
        () => this.limit.activeCount,
      );
      metrics.gauge('dominoes_global_counts_waiting', 'Counts over every match or player waiting for their turn.', () => this.limit.pendingCount);
    }
  }

  /** Runs `read`, which counts over everyone, when its turn comes. */
  run<T>(read: () => Promise<T>): Promise<T> {
    return this.limit(read);
  }
}
