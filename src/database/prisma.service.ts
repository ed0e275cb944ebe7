import { Inject, Injectable, Logger, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { PrismaClient, type Prisma } from '../../generated/prisma/client.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { DATABASE_URL } from './database.tokens.js';
import { timePoolWaits } from './pool-waits.js';
import { PreparedStatements } from './prepared-statements.js';
import { KEEP_ALIVE } from './session-heartbeat.js';

/** How long past DB_STATEMENT_TIMEOUT_MS the client waits for an answer before it gives up on the connection. */
const QUERY_TIMEOUT_MARGIN_MS = 1_000;

/**
 * How long a pooled connection may sit idle before the pool closes it. pg-pool's default, 10 s,
 * closed and reopened a few connections a minute under steady load (each reopening pays a backend
 * start and prepares every statement again); a quiet server still gives them back after this.
 */
const POOL_IDLE_MS = 5 * 60_000;

/**
 * The one Prisma client of the process, over node-postgres (Prisma 7's driver adapter: no query
 * engine binary). It connects lazily, on the first query.
 *
 * `poolQuery()` runs a statement built with `Prisma.sql` directly on the same connection pool. It is for
 * the statements on every command's path (load the match, look up a clientMoveId, commit):
 * measured here, Prisma's client runtime cost more CPU per raw statement than the rest of the
 * command, and a move's latency is the product's hot path. Everything else goes through Prisma.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  /** SQL statements sent so far; counted only with METRICS=true (benchmarks read it). */
  statements = 0;
  /** Connections the pool has opened so far (a new one costs a backend start: a tail, under load). */
  private opened = 0;
  private readonly pool: pg.Pool;
  private readonly counting: boolean;
  /** Every statement of this pool runs prepared: parsed and planned once per connection. */
  private readonly prepared = new PreparedStatements();

  constructor(@Inject(DATABASE_URL) url: string, @Inject(APP_CONFIG) config: AppConfig, @Optional() metrics?: MetricsService) {
    const { acquireTimeoutMs, statementTimeoutMs } = config.limits.db;
    const pool = new pg.Pool({
      connectionString: url,
      max: config.dbPoolSize,
      // A request waits this long for a free connection, then fails instead of queueing forever.
      connectionTimeoutMillis: acquireTimeoutMs,
      idleTimeoutMillis: POOL_IDLE_MS,
      // No statement holds a pooled connection longer than this (0: no limit).
      ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
      // The database enforces that limit only while it can still answer: past it by a second
      // more, the client gives up too (a peer gone silent), and the pool drops the connection.
      ...(statementTimeoutMs > 0 ? { query_timeout: statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS } : {}),
      ...KEEP_ALIVE,
      // Times are stored without a time zone, some written by the application in UTC, others by
      // the statements' now() in the session's zone: every session is UTC, whatever the
      // database's default. Awaited by the pool before the connection is first handed out.
      // pg-pool awaits the promise (its types declare void).
      // eslint-disable-next-line @typescript-eslint/no-misused-promises
      onConnect: (client: pg.ClientBase) => client.query("SET TIME ZONE 'UTC'"),
    });
    // An idle connection the database dropped (a restart, a terminated backend) is discarded by
    // the pool and replaced on demand; unhandled, its error would end the process.
    pool.on('error', (e) => new Logger(PrismaService.name).warn(`idle database connection lost: ${e.message}`));
    super({
      adapter: new PrismaPg(pool, { disposeExternalPool: true }),
      ...(config.metrics ? { log: [{ emit: 'event' as const, level: 'query' as const }] } : {}),
    });
    this.pool = pool;
    pool.on('connect', () => this.opened++);
    this.counting = config.metrics;
    if (config.metrics) (this as unknown as { $on(e: 'query', cb: () => void): void }).$on('query', () => this.statements++);
    if (metrics?.enabled) this.exposeTo(metrics);
  }

  /** The pool's waits as they happen, and its figures and the statement count at each scrape (GET /metrics). */
  private exposeTo(m: MetricsService): void {
    const pool = this.pool;
    timePoolWaits(pool, (s) => m.poolWait(s));
    m.counter('dominoes_sql_statements_total', 'SQL statements sent on behalf of requests (background sweeps not counted).', () => this.statements);
    m.gauge('dominoes_db_pool_max', 'Largest size of the PostgreSQL pool (DB_POOL_SIZE).', () => pool.options.max ?? 10);
    m.gauge('dominoes_db_pool_connections', 'PostgreSQL connections open in the pool, busy or idle.', () => pool.totalCount);
    m.gauge('dominoes_db_pool_idle', 'Idle PostgreSQL connections in the pool.', () => pool.idleCount);
    m.counter('dominoes_db_pool_connections_opened_total', 'PostgreSQL connections the pool has opened.', () => this.opened);
    m.gauge('dominoes_db_pool_waiting', 'Statements waiting for a free pooled connection right now.', () => pool.waitingCount);
  }

  async poolQuery<T>(sql: Prisma.Sql): Promise<T[]> {
    if (this.counting) this.statements++;
    return (await this.pool.query(this.prepared.query(sql))).rows as T[];
  }

  /**
   * Runs `work` as one transaction on one pooled connection: BEGIN, its statements, COMMIT, or
   * ROLLBACK if anything throws. For the rare command that needs more than one statement.
   */
  async transaction<T>(work: (query: <R>(sql: Prisma.Sql) => Promise<R[]>) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(async <R>(sql: Prisma.Sql) => {
        if (this.counting) this.statements++;
        return (await client.query(this.prepared.query(sql))).rows as R[];
      });
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw e;
    } finally {
      client.release(broken);
    }
  }

  /** A statement of background work (sweeps): on the same pool, never counted as a request's. */
  async background<T>(sql: Prisma.Sql): Promise<T[]> {
    return (await this.pool.query(this.prepared.query(sql))).rows as T[];
  }

  /**
   * Closed last, after every other module's destroy hook: shutdown lets in-flight work (bot moves,
   * sweeps) finish, and that work needs the pool.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
    await this.pool.end().catch(() => {});
  }
}
