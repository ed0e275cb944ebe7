import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../common/api-error.js';
import { APP_CONFIG, type AppConfig, type RateBudget, type RateLimitsConfig } from '../config/config.js';

const REDIS_READY_WAIT_MS = 3_000;
/** How often Redis is asked whether it answers; while it does not, no request waits on it at all. */
const REDIS_WATCH_MS = 1_000;

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
  private readonly limiters = new Map<RateBucket, { limiter: RateLimiterAbstract; memory: RateLimiterMemory; budget: RateBudget }>();
  private readonly redis: Redis | null;
  /** Whether Redis answered the last watch: while it does not, the memory counters answer at once. */
  private redisAnswers = true;
  private watch: NodeJS.Timeout | undefined;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const { keyPrefix, ...budgets } = config.rateLimits;
    this.redis = config.redisUrl ? this.connect(config.redisUrl, config.redisCommandTimeoutMs) : null;
    for (const [bucket, budget] of Object.entries(budgets) as [RateBucket, RateBudget | null][]) {
      if (!budget) continue;
      const options = { keyPrefix: `${keyPrefix}:${bucket}`, points: budget.points, duration: budget.seconds };
      const memory = new RateLimiterMemory(options);
      const limiter = this.redis ? new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: memory }) : memory;
      this.limiters.set(bucket, { limiter, memory, budget });
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
      await (this.redisAnswers ? entry.limiter : entry.memory).consume(key);
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
    if (!redis) return;
    this.watch = setInterval(() => void this.watchRedis(redis), REDIS_WATCH_MS);
    this.watch.unref();
    if (redis.status === 'ready') return;
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), REDIS_READY_WAIT_MS);
      redis.once('ready', () => (clearTimeout(timer), resolve(true)));
    });
    if (!ready) this.logger.warn(`Redis for rate limits not ready after ${REDIS_READY_WAIT_MS} ms; counting in memory until it is`);
  }

  /** Whether budgets are counted in Redis now (REDIS_URL set, and Redis answers). */
  get countingInRedis(): boolean {
    return this.redis !== null && this.redisAnswers;
  }

  /**
   * Asks Redis to answer within the command timeout; the memory counters answer while it does
   * not. A connection that is up but silent is dropped for a new one: its unanswered commands
   * would otherwise stay queued ahead of every later reply.
   */
  private async watchRedis(redis: Redis): Promise<void> {
    const answers = await redis.ping().then(
      () => true,
      () => false,
    );
    if (answers !== this.redisAnswers)
      this.logger.warn(answers ? 'Redis for rate limits answers again' : 'Redis for rate limits does not answer; counting in memory until it does');
    this.redisAnswers = answers;
    if (!answers && (redis.status === 'ready' || redis.status === 'connect')) redis.disconnect(true);
  }

  private connect(url: string, commandTimeoutMs: number): Redis {
    // No offline queue: while Redis is away a command fails at once and the insurance limiter answers.
    const redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      // A Redis that accepts connections but stops answering (a failover, a lost route) gives no
      // error: without a bound (REDIS_COMMAND_TIMEOUT_MS) every request would wait on it.
      commandTimeout: commandTimeoutMs,
      // A command the memory counters answered in its place is not sent again on a new connection.
      autoResendUnfulfilledCommands: false,
    });
    let reported = false;
    redis.on('error', (e: Error) => {
      if (!reported) this.logger.warn(`Redis for rate limits unavailable (${e.message}); counting in memory until it is back`);
      reported = true;
    });
    redis.on('ready', () => (reported = false));
    return redis;
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.watch);
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }
}
