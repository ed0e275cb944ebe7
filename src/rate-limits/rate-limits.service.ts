import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../common/api-error.js';
import { APP_CONFIG, type AppConfig, type RateBudget, type RateLimitsConfig } from '../config/config.js';

const REDIS_READY_WAIT_MS = 3_000;

/** A budget of requests or actions, counted per key (an address or a player id). */
export type RateBucket = Exclude<keyof RateLimitsConfig, 'keyPrefix'>;

/** What a refusal says about each bucket (the message names the limit and how to wait it out). */
const WHAT: Record<RateBucket, string> = {
  httpAddress: 'requests from this address',
  httpPlayer: 'requests with this token',
  wsConnect: 'WebSocket connections from this address',
  wsSubscribe: 'WebSocket operations',
  register: 'registrations from this address',
  createMatch: 'matches created or joined',
  moves: 'match commands',
  webhooks: 'webhook changes and redeliveries',
};

/** A refusal for going over a budget: RATE_LIMITED with `extensions.retryAfter` in whole seconds. */
export class RateLimitedError extends ApiError {
  constructor(
    bucket: RateBucket,
    budget: RateBudget,
    readonly retryAfter: number,
  ) {
    super('RATE_LIMITED', `too many ${WHAT[bucket]} (limit ${budget.points} per ${budget.seconds} s): retry after ${retryAfter} s`, {
      retryAfter,
    });
  }
}

/**
 * The rate limits of every transport, counted in fixed windows by rate-limiter-flexible: in this
 * process's memory by default, or in Redis when REDIS_URL is set so that every instance spends
 * from the same budgets. If Redis cannot answer, each instance falls back to its own memory
 * counters (the insurance limiter) rather than refusing or waving everyone through.
 */
@Injectable()
export class RateLimits implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RateLimits.name);
  private readonly limiters = new Map<RateBucket, { limiter: RateLimiterAbstract; budget: RateBudget }>();
  private readonly redis: Redis | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const { keyPrefix, ...budgets } = config.rateLimits;
    this.redis = config.redisUrl ? this.connect(config.redisUrl) : null;
    for (const [bucket, budget] of Object.entries(budgets) as [RateBucket, RateBudget | null][]) {
      if (!budget) continue;
      const options = { keyPrefix: `${keyPrefix}:${bucket}`, points: budget.points, duration: budget.seconds };
      const memory = new RateLimiterMemory(options);
      const limiter = this.redis ? new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: memory }) : memory;
      this.limiters.set(bucket, { limiter, budget });
    }
  }

  /** Whether `bucket` has a budget (a variable set to `off` has none: nothing is counted). */
  limits(bucket: RateBucket): boolean {
    return this.limiters.has(bucket);
  }

  /** Spends one point of `key`'s budget in `bucket`; throws RateLimitedError when none is left. */
  async consume(bucket: RateBucket, key: string): Promise<void> {
    const entry = this.limiters.get(bucket);
    if (!entry) return;
    try {
      await entry.limiter.consume(key);
    } catch (e) {
      if (e instanceof RateLimiterRes) throw new RateLimitedError(bucket, entry.budget, Math.max(1, Math.ceil(e.msBeforeNext / 1000)));
      throw e;
    }
  }

  /**
   * Waits (a little) for Redis before serving: until it is ready, every instance would count in
   * its own memory. A Redis that does not answer in time only delays nothing further.
   */
  async onModuleInit(): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.status === 'ready') return;
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), REDIS_READY_WAIT_MS);
      redis.once('ready', () => (clearTimeout(timer), resolve(true)));
    });
    if (!ready) this.logger.warn(`Redis for rate limits not ready after ${REDIS_READY_WAIT_MS} ms; counting in memory until it is`);
  }

  private connect(url: string): Redis {
    // No offline queue: while Redis is away a command fails at once and the insurance limiter answers.
    const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
    let reported = false;
    redis.on('error', (e: Error) => {
      if (!reported) this.logger.warn(`Redis for rate limits unavailable (${e.message}); counting in memory until it is back`);
      reported = true;
    });
    redis.on('ready', () => (reported = false));
    return redis;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }
}
