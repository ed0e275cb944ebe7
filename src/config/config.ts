import { z } from 'zod';
import { limitsEnvSchema, limitsFrom, type Limits } from './limits.config.js';
import { DEFAULT_SEARCH_NODES } from '../domain/bots/expert.js';
import { webhooksEnvSchema, webhooksFrom, type WebhooksConfig } from './webhooks.config.js';

/**
 * The service's whole configuration, read from the environment once at boot. Every bad key is
 * listed in one message (the process then exits 1), so a deploy fails fast and says why.
 */
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

// Decimal digits only: Number() would also read '0x100A' or '1e3' as a port.
const port = z.string().trim().regex(/^\d+$/, 'must be a port number (0 to 65535)').transform(Number).pipe(z.number().int().min(0).max(65535));

const postgresUrl = z.string().refine((v) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== '' && u.pathname.length > 1;
  } catch {
    return false;
  }
}, 'must be a postgresql://user@host:port/database URL');

/** A budget of `points` per window of `seconds` ("30/60"), or "off" (null). */
const rate = z
  .string()
  .regex(/^(off|[1-9]\d{0,8}\/[1-9]\d{0,5})$/, 'must be "points/seconds" (e.g. 30/60) or "off"')
  .transform((v): RateBudget | null => {
    if (v === 'off') return null;
    const [points, seconds] = v.split('/').map(Number);
    return { points, seconds };
  });

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: postgresUrl.optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  EMBEDDED_PG_PORT: port.default(0),
  MIGRATE_ON_START: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBSUB: z.enum(['memory', 'postgres']).default('memory'),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  // At most an hour: Node's timers overflow past 2^31 - 1 ms and would fire every millisecond.
  WS_KEEPALIVE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(12_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(15_000),
  DB_HEARTBEAT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  METRICS: bool.default(false),
  // Bench only: the floor mutation of bench:moves (never in the public schema).
  BENCH_FLOOR: bool.default(false),
  // Web client and GraphQL IDE (see README): the IDE defaults to on outside production.
  GRAPHQL_IDE: bool.optional(),
  // Rate limits and quotas (README "Limits and abuse"): "points/seconds", or "off".
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  // How long a Redis command may take before the memory counters answer instead.
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(300),
  RATE_LIMIT_KEY_PREFIX: z.string().min(1).default('dominoes:rl'),
  RATE_LIMIT_HTTP_ADDRESS: rate.prefault('300/10'),
  RATE_LIMIT_HTTP_PLAYER: rate.prefault('200/10'),
  RATE_LIMIT_WS_CONNECT: rate.prefault('20/60'),
  RATE_LIMIT_WS_SUBSCRIBE: rate.prefault('60/60'),
  RATE_LIMIT_REGISTER: rate.prefault('10/60'),
  RATE_LIMIT_CREATE_MATCH: rate.prefault('20/60'),
  RATE_LIMIT_MOVES: rate.prefault('600/60'),
  RATE_LIMIT_WEBHOOKS: rate.prefault('30/60'),
  MAX_WAITING_MATCHES: z.coerce.number().int().min(1).max(10_000).default(10),
  TOKEN_CACHE_TTL_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  // Recovery and several instances: due-work sweeper, match cache
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(1000),
  SWEEP_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(20),
  SWEEP_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(15_000),
  SWEEP_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(2000),
  MATCH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(2000),
  FEED_RECHECK_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
  // Finding opponents: a WAITING match nobody joins expires after this many hours (fractions allowed).
  OPEN_MATCH_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(72),
  // Clocks: the shortest turn or bank a match may ask for (tests use 1).
  CLOCK_MIN_SECONDS: z.coerce.number().int().min(1).max(2_592_000).default(60),
  // Query cost, WebSocket, timeout and production limits (src/limits; README "Limits and abuse").
  ...limitsEnvSchema,
  // Bots: the expert's search bounds per move, and the worker threads it runs on.
  BOT_MOVE_BUDGET_MS: z.coerce.number().int().min(1).max(10_000).default(50),
  BOT_SEARCH_NODES: z.coerce.number().int().min(100).max(10_000_000).default(DEFAULT_SEARCH_NODES),
  BOT_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  // Webhooks (README "Receiving webhooks").
  ...webhooksEnvSchema,
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
});

export type AppConfig = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** null: start the embedded PostgreSQL under dataDir */
  databaseUrl: string | null;
  dataDir: string;
  embeddedPgPort: number;
  migrateOnStart: boolean;
  logLevel: string;
  pubsub: 'memory' | 'postgres';
  dbPoolSize: number;
  wsKeepAliveMs: number;
  /** how often the LISTEN and instance-lock sessions must answer a trivial query (see session-heartbeat.ts) */
  dbHeartbeatMs: number;
  /** how long a SIGTERM/SIGINT may take to close everything before the process exits anyway */
  shutdownTimeoutMs: number;
  /** serves GET /metrics (Prometheus text) and counts SQL statements; off by default */
  metrics: boolean;
  /** bench only: registers the floor mutation bench:moves compares a move with */
  benchFloor: boolean;
  /** serves the offline GraphQL IDE at GET /graphql (Accept: text/html) */
  graphqlIde: boolean;
  /** Shared counters for the rate limits across instances; null: in process memory. */
  redisUrl: string | null;
  /** REDIS_COMMAND_TIMEOUT_MS: past it a request is counted in memory instead. */
  redisCommandTimeoutMs: number;
  rateLimits: RateLimitsConfig;
  /** WAITING matches a player may sit in at once (createMatch/joinMatch refuse beyond). */
  maxWaitingMatches: number;
  /** How long a token lookup is trusted, and how often open sockets' tokens are re-checked. */
  tokenCacheTtlMs: number;
  /** due work (bot moves, later clocks and webhooks): how often every instance sweeps, how much per sweep */
  sweep: { intervalMs: number; batchSize: number; leaseMs: number; graceMs: number };
  /** how long a cached match record may serve reads before it is read again */
  matchCacheTtlMs: number;
  /** how often open match feeds are checked against the table for a commit whose signal never came (0: never) */
  feedRecheckMs: number;
  /** a WAITING match nobody joined for this long expires (ABANDONED) */
  openMatchTtlHours: number;
  /** the shortest moveSeconds / bankSeconds a clock may ask for */
  clockMinSeconds: number;
  limits: Limits;
  /** wall-clock bound of one searching bot move, in ms */
  botMoveBudgetMs: number;
  /** simulated moves per searching bot move (the reproducible bound) */
  botSearchNodes: number;
  /** worker threads for searching bots */
  botWorkers: number;
  webhooks: WebhooksConfig;
  /** Server processes behind one port (node:cluster); more than 1 needs DATABASE_URL and PUBSUB=postgres. */
  workers: number;
};

export interface RateBudget {
  points: number;
  seconds: number;
}

/** One budget per bucket; null turns that limit off. */
export interface RateLimitsConfig {
  keyPrefix: string;
  httpAddress: RateBudget | null;
  httpPlayer: RateBudget | null;
  wsConnect: RateBudget | null;
  wsSubscribe: RateBudget | null;
  register: RateBudget | null;
  createMatch: RateBudget | null;
  moves: RateBudget | null;
  /** createWebhook, updateWebhook, deleteWebhook, rotateWebhookSecret and redeliverWebhook */
  webhooks: RateBudget | null;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv): AppConfig {
  // An empty variable means "unset", as in most dotenv tooling.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const c = parsed.data;
  if (c.METRICS && !c.METRICS_TOKEN)
    throw new ConfigError('invalid configuration: METRICS_TOKEN must be set when METRICS=true (GET /metrics asks for it)');
  // Each process would start its own embedded PostgreSQL, or hear only its own commits.
  if (c.WORKERS > 1 && (!c.DATABASE_URL || c.PUBSUB !== 'postgres'))
    throw new ConfigError(
      'invalid configuration: WORKERS > 1 needs DATABASE_URL and PUBSUB=postgres (the processes share one database and its signals)',
    );
  return {
    env: c.NODE_ENV,
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL ?? null,
    dataDir: c.DATA_DIR,
    embeddedPgPort: c.EMBEDDED_PG_PORT,
    migrateOnStart: c.MIGRATE_ON_START,
    logLevel: c.LOG_LEVEL,
    pubsub: c.PUBSUB,
    dbPoolSize: c.DB_POOL_SIZE,
    wsKeepAliveMs: c.WS_KEEPALIVE_MS,
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    dbHeartbeatMs: c.DB_HEARTBEAT_MS,
    metrics: c.METRICS,
    benchFloor: c.BENCH_FLOOR,
    graphqlIde: c.GRAPHQL_IDE ?? c.NODE_ENV !== 'production',
    redisUrl: c.REDIS_URL ?? null,
    redisCommandTimeoutMs: c.REDIS_COMMAND_TIMEOUT_MS,
    rateLimits: {
      keyPrefix: c.RATE_LIMIT_KEY_PREFIX,
      httpAddress: c.RATE_LIMIT_HTTP_ADDRESS,
      httpPlayer: c.RATE_LIMIT_HTTP_PLAYER,
      wsConnect: c.RATE_LIMIT_WS_CONNECT,
      wsSubscribe: c.RATE_LIMIT_WS_SUBSCRIBE,
      register: c.RATE_LIMIT_REGISTER,
      createMatch: c.RATE_LIMIT_CREATE_MATCH,
      moves: c.RATE_LIMIT_MOVES,
      webhooks: c.RATE_LIMIT_WEBHOOKS,
    },
    maxWaitingMatches: c.MAX_WAITING_MATCHES,
    tokenCacheTtlMs: c.TOKEN_CACHE_TTL_MS,
    sweep: { intervalMs: c.SWEEP_INTERVAL_MS, batchSize: c.SWEEP_BATCH_SIZE, leaseMs: c.SWEEP_LEASE_MS, graceMs: c.SWEEP_GRACE_MS },
    matchCacheTtlMs: c.MATCH_CACHE_TTL_MS,
    feedRecheckMs: c.FEED_RECHECK_MS,
    openMatchTtlHours: c.OPEN_MATCH_TTL_HOURS,
    clockMinSeconds: c.CLOCK_MIN_SECONDS,
    limits: limitsFrom(c, c.NODE_ENV === 'production'),
    botMoveBudgetMs: c.BOT_MOVE_BUDGET_MS,
    botSearchNodes: c.BOT_SEARCH_NODES,
    botWorkers: c.BOT_WORKERS,
    webhooks: webhooksFrom(c),
    workers: c.WORKERS,
  };
}

/** Nest injection token for the validated configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');
