import { z } from 'zod';

/**
 * Every bound on what one client may ask of the server: query cost, WebSocket use, timeouts and
 * the production switches. Read from the environment with the rest of the configuration
 * (src/config/config.ts); the README's "Limits and abuse" section lists each with its default.
 */
const int = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);
const flag = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

export const limitsEnvSchema = {
  GRAPHQL_MAX_DEPTH: int(2, 100, 12),
  GRAPHQL_MAX_ALIASES: int(0, 10_000, 30),
  GRAPHQL_MAX_TOKENS: int(100, 1_000_000, 2_000),
  GRAPHQL_MAX_COST: int(1, 100_000_000, 150_000),
  GRAPHQL_MAX_COUNTS: int(1, 10_000, 3),
  GRAPHQL_MAX_ROUNDS: int(1, 10_000_000, 2_000),
  GRAPHQL_INTROSPECTION: flag.optional(),
  GRAPHQL_SUGGESTIONS: flag.optional(),
  WS_MAX_PAYLOAD_BYTES: int(1_024, 100 * 1024 * 1024, 64 * 1024),
  WS_MAX_SUBSCRIPTIONS_PER_SOCKET: int(1, 100_000, 20),
  WS_MAX_SOCKETS_PER_PLAYER: int(1, 100_000, 8),
  WS_MAX_SOCKETS_PER_ADDRESS: int(1, 1_000_000, 100),
  WS_OPERATION_CACHE_BYTES: int(0, 1024 * 1024 * 1024, 4 * 1024 * 1024),
  WS_SUBSCRIPTION_QUEUE: int(10, 1_000_000, 200),
  WS_INIT_TIMEOUT_MS: int(100, 600_000, 5_000),
  WS_IDLE_TIMEOUT_MS: int(0, 86_400_000, 300_000),
  HTTP_REQUEST_TIMEOUT_MS: int(100, 3_600_000, 10_000),
  HTTP_CONNECTION_TIMEOUT_MS: int(100, 3_600_000, 30_000),
  HTTP_KEEPALIVE_TIMEOUT_MS: int(100, 3_600_000, 5_000),
  DB_ACQUIRE_TIMEOUT_MS: int(100, 600_000, 5_000),
  DB_STATEMENT_TIMEOUT_MS: int(0, 3_600_000, 10_000),
  DB_GLOBAL_COUNTS: int(1, 1_000, 1),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
};

type LimitsEnv = z.output<z.ZodObject<typeof limitsEnvSchema>>;

export interface Limits {
  query: {
    maxDepth: number;
    maxAliases: number;
    maxTokens: number;
    maxCost: number;
    /** totalCount fields one operation may select (each reads every row that passes its filters) */
    maxCounts: number;
    /** rounds one query or mutation may read, counted as they are read (Match.rounds) */
    maxRounds: number;
    introspection: boolean;
    suggestions: boolean;
  };
  ws: {
    maxPayloadBytes: number;
    maxSubscriptionsPerSocket: number;
    maxSocketsPerPlayer: number;
    maxSocketsPerAddress: number;
    operationCacheBytes: number;
    subscriptionQueue: number;
    initTimeoutMs: number;
    /** 0: never close a socket for having no subscription */
    idleTimeoutMs: number;
  };
  http: { requestTimeoutMs: number; connectionTimeoutMs: number; keepAliveTimeoutMs: number };
  /**
   * statementTimeoutMs 0: none. globalCounts: counts over every match or player (src/database/global-counts.ts)
   * one process runs at once.
   */
  db: { acquireTimeoutMs: number; statementTimeoutMs: number; globalCounts: number };
  /** /metrics answers only requests bearing it; unset: /metrics is off even with METRICS=true */
  metricsToken: string | null;
}

export function limitsFrom(env: LimitsEnv, production: boolean): Limits {
  return {
    query: {
      maxDepth: env.GRAPHQL_MAX_DEPTH,
      maxAliases: env.GRAPHQL_MAX_ALIASES,
      maxTokens: env.GRAPHQL_MAX_TOKENS,
      maxCost: env.GRAPHQL_MAX_COST,
      maxCounts: env.GRAPHQL_MAX_COUNTS,
      maxRounds: env.GRAPHQL_MAX_ROUNDS,
      introspection: env.GRAPHQL_INTROSPECTION ?? !production,
      suggestions: env.GRAPHQL_SUGGESTIONS ?? !production,
    },
    ws: {
      maxPayloadBytes: env.WS_MAX_PAYLOAD_BYTES,
      maxSubscriptionsPerSocket: env.WS_MAX_SUBSCRIPTIONS_PER_SOCKET,
      maxSocketsPerPlayer: env.WS_MAX_SOCKETS_PER_PLAYER,
      maxSocketsPerAddress: env.WS_MAX_SOCKETS_PER_ADDRESS,
      operationCacheBytes: env.WS_OPERATION_CACHE_BYTES,
      subscriptionQueue: env.WS_SUBSCRIPTION_QUEUE,
      initTimeoutMs: env.WS_INIT_TIMEOUT_MS,
      idleTimeoutMs: env.WS_IDLE_TIMEOUT_MS,
    },
    http: {
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      connectionTimeoutMs: env.HTTP_CONNECTION_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEPALIVE_TIMEOUT_MS,
    },
    db: { acquireTimeoutMs: env.DB_ACQUIRE_TIMEOUT_MS, statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS, globalCounts: env.DB_GLOBAL_COUNTS },
    metricsToken: env.METRICS_TOKEN ?? null,
  };
}
