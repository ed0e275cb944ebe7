import { z } from 'zod';
import { DEFAULT_SEARCH_NODES } from '../domain/bots/expert.js';

/**
 * The service's whole configuration, read from the environment once at boot. Every bad key is
 * listed in one message (the process then exits 1), so a deploy fails fast and says why.
 */
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const port = z.coerce.number().int().min(0).max(65535);

const postgresUrl = z.string().refine((v) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== '' && u.pathname.length > 1;
  } catch {
    return false;
  }
}, 'must be a postgresql://user@host:port/database URL');

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
  WS_KEEPALIVE_MS: z.coerce.number().int().min(1000).default(12_000),
  METRICS: bool.default(false),
  // Bots: the expert's search bounds per move, and the worker threads it runs on.
  BOT_MOVE_BUDGET_MS: z.coerce.number().int().min(1).max(10_000).default(50),
  BOT_SEARCH_NODES: z.coerce.number().int().min(100).max(10_000_000).default(DEFAULT_SEARCH_NODES),
  BOT_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
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
  /** counts SQL statements and serves GET /metrics (benchmarks); off by default */
  metrics: boolean;
  /** wall-clock bound of one searching bot move, in ms */
  botMoveBudgetMs: number;
  /** simulated moves per searching bot move (the reproducible bound) */
  botSearchNodes: number;
  /** worker threads for searching bots */
  botWorkers: number;
};

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
    metrics: c.METRICS,
    botMoveBudgetMs: c.BOT_MOVE_BUDGET_MS,
    botSearchNodes: c.BOT_SEARCH_NODES,
    botWorkers: c.BOT_WORKERS,
  };
}

/** Nest injection token for the validated configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');
