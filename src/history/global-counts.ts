import { Inject, Injectable, Optional } from '@nestjs/common';
import pLimit, { type LimitFunction } from 'p-limit';
import { ApiError } from '../common/api-error.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { MetricsService } from '../metrics/metrics.service.js';

/** Counts one process lets wait for their turn; past it a count is refused at once. */
export const MAX_WAITING_COUNTS = 1_000;

/**
 * Counts over everyone: a `matches` list not scoped to a player that selects `totalCount`, and
 * every `leaderboard` page (it counts to rank). Each reads every row its filters pass, whatever the
 * page size: a scan that grows with the whole table, about 0.3 µs a match here, so a few hundred
 * milliseconds of a database core at a million matches. GRAPHQL_MAX_COUNTS bounds them per
 * request; this bounds them per process: at most DB_GLOBAL_COUNTS run at once and the rest wait
 * their turn here, in order, holding no connection. However many clients ask (or however often
 * one does), counts take at most that share of the database, and commands and every other read
 * keep the rest. Counts scoped to one player read that player's rows only and are not held.
 *
 * The wait is bounded as a pooled connection's is: a count whose turn comes after
 * DB_ACQUIRE_TIMEOUT_MS is not run (its client may be gone, and a backlog would only grow), and
 * one that would join MAX_WAITING_COUNTS others is refused at once. Either is RATE_LIMITED with a
 * `retryAfter` of a second: the server, not the caller, is busy, and the caller may try again.
 */
@Injectable()
export class GlobalCounts {
  private readonly limit: LimitFunction;
  private readonly maxWaitMs: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Optional() metrics?: MetricsService) {
    this.limit = pLimit(config.limits.db.globalCounts);
    this.maxWaitMs = config.limits.db.acquireTimeoutMs;
    if (metrics?.enabled) {
      metrics.gauge(
        'dominoes_global_counts_running',
        'Counts over every match or player running now (DB_GLOBAL_COUNTS at most).',
        () => this.limit.activeCount,
      );
      metrics.gauge('dominoes_global_counts_waiting', 'Counts over every match or player waiting for their turn.', () => this.limit.pendingCount);
    }
  }

  /** Runs `read`, which counts over everyone, when its turn comes (or refuses it: see above). */
  run<T>(read: () => Promise<T>): Promise<T> {
    if (this.limit.pendingCount >= MAX_WAITING_COUNTS) return Promise.reject(busy(`${MAX_WAITING_COUNTS} are waiting already`));
    const queuedAt = Date.now();
    return this.limit(() => {
      const waited = Date.now() - queuedAt;
      if (waited > this.maxWaitMs) throw busy(`this one waited ${waited} ms`);
      return read();
    });
  }
}

function busy(why: string): ApiError {
  return new ApiError('RATE_LIMITED', `too many counts over every match or player at once (${why}): retry after 1 s`, { retryAfter: 1 });
}
