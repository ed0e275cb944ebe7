import { Injectable, type OnModuleInit } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import { WsConnections } from '../limits/ws-connections.js';
import { FeedRegistry } from '../subscriptions/feed-registry.js';
import { MetricsService } from './metrics.service.js';

/** The figures read from their owners at scrape time: SQL statements, sockets, subscriptions, the pool. */
@Injectable()
export class MetricsSources implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly prisma: PrismaService,
    private readonly feeds: FeedRegistry,
    private readonly sockets: WsConnections,
  ) {}

  onModuleInit(): void {
    const m = this.metrics;
    if (!m.enabled) return;
    m.counter(
      'dominoes_sql_statements_total',
      'SQL statements sent on behalf of requests (background sweeps not counted).',
      () => this.prisma.statements,
    );
    m.gauge('dominoes_open_sockets', 'graphql-ws connections open in this process.', () => this.sockets.openSockets);
    m.gauge('dominoes_open_subscriptions', 'GraphQL subscriptions open in this process.', () => this.feeds.openFeeds);
    m.gauge('dominoes_db_pool_max', 'Largest size of the PostgreSQL pool (DB_POOL_SIZE).', () => this.prisma.poolStats().max);
    m.gauge('dominoes_db_pool_connections', 'PostgreSQL connections open in the pool, busy or idle.', () => this.prisma.poolStats().total);
    m.gauge('dominoes_db_pool_idle', 'Idle PostgreSQL connections in the pool.', () => this.prisma.poolStats().idle);
    m.counter('dominoes_db_pool_connections_opened_total', 'PostgreSQL connections the pool has opened.', () => this.prisma.poolStats().opened);
    m.gauge('dominoes_db_pool_waiting', 'Statements waiting for a free pooled connection right now.', () => this.prisma.poolStats().waiting);
  }
}
