import { Inject, Injectable, Optional } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { FairQueue } from '../common/fair-queue.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { MetricsService } from '../metrics/metrics.service.js';

/** Counts one process lets wait for their turn; past it a count is refused at once. */
export const MAX_WAITING_COUNTS = 1_000;
/** Counts one caller (client address) may have waiting at once; past it theirs is refused at once. */
export const MAX_WAITING_COUNTS_PER_CALLER = 10;

interface WaitingCount {
  queuedAt: number;
  start(): void;
  refuse(error: ApiError): void;
}

/**
 * Counts over everyone: a `matches` list not scoped to a player that selects `totalCount`, and
 * every `leaderboard` page (it counts to rank). Each reads every row its filters pass, whatever the
 * page size: a scan that grows with the whole table, about 0.3 µs a match here, so a few hundred
 * milliseconds of a database core at a million matches. GRAPHQL_MAX_COUNTS bounds them per
 * request; this bounds them per process: at most DB_GLOBAL_COUNTS run at once and the rest wait
 * their turn here, holding no connection. However many clients ask (or however often one does),
 * counts take at most that share of the database, and commands and every other read keep the rest.
 * Counts scoped to one player read that player's rows only and are not held.
 *
 * Turns go round the callers (client addresses, as the rate limits count them): one caller's
 * backlog delays another's count by at most one count per turn, so a client that floods counts
 * waits behind its own, not everyone else.
 *
 * The wait is bounded as a pooled connection's is: a count whose turn comes after
 * DB_ACQUIRE_TIMEOUT_MS is not run (its client may be gone, and a backlog would only grow), and
 * one that would join MAX_WAITING_COUNTS others, or MAX_WAITING_COUNTS_PER_CALLER of its caller's,
 * is refused at once. Either is RATE_LIMITED with a `retryAfter` of a second: the caller may try
 * again.
 */
@Injectable()
export class GlobalCounts {
  private readonly maxRunning: number;
  private readonly maxWaitMs: number;
  private running = 0;
  private readonly waiting = new FairQueue<WaitingCount>();

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Optional() metrics?: MetricsService) {
    this.maxRunning = config.limits.db.globalCounts;
    this.maxWaitMs = config.limits.db.acquireTimeoutMs;
    if (metrics?.enabled) {
      metrics.gauge(
        'dominoes_global_counts_running',
        'Counts over every match or player running now (DB_GLOBAL_COUNTS at most).',
        () => this.running,
      );
      metrics.gauge('dominoes_global_counts_waiting', 'Counts over every match or player waiting for their turn.', () => this.waiting.size);
    }
  }

  /** Runs `read`, which counts over everyone, when `caller`'s turn comes (or refuses it: see above). */
  run<T>(caller: string, read: () => Promise<T>): Promise<T> {
    if (this.waiting.size >= MAX_WAITING_COUNTS) return Promise.reject(busy(`${MAX_WAITING_COUNTS} are waiting already`));
    if (this.waiting.sizeOf(caller) >= MAX_WAITING_COUNTS_PER_CALLER) {
      return Promise.reject(busy(`${MAX_WAITING_COUNTS_PER_CALLER} of yours are waiting already`));
    }
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        new Promise<T>((settle) => settle(read())).then(resolve, reject).finally(() => {
          this.running--;
          this.startNext();
        });
      };
      if (this.running < this.maxRunning) start();
      else this.waiting.push(caller, { queuedAt: Date.now(), start, refuse: reject });
    });
  }

  private startNext(): void {
    while (this.running < this.maxRunning) {
      const next = this.waiting.shift();
      if (!next) return;
      const waited = Date.now() - next.queuedAt;
      if (waited > this.maxWaitMs) next.refuse(busy(`this one waited ${waited} ms`));
      else next.start();
    }
  }
}

function busy(why: string): ApiError {
  return new ApiError('RATE_LIMITED', `too many counts over every match or player at once (${why}): retry after 1 s`, { retryAfter: 1 });
}
