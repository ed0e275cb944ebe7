import { Inject, Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../config/config.js';

/** Seconds; fine below 50 ms, where a command's latency lives, coarse above. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.035, 0.05, 0.075, 0.1, 0.25, 0.5, 1, 2.5, 5];
const LATENESS_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300];

/**
 * The process's figures in the Prometheus text format (GET /metrics). With METRICS=false every
 * record method is a no-op and nothing is sampled, so the figures cost nothing when unused.
 * One registry per instance (not prom-client's global one): tests run several apps per process.
 *
 * Push side: `command`, `graphqlError`, `poolWait`, `lateness`, `dueWorkFailure`. Pull side: `gauge` and `counter`
 * read a value from their owner at scrape time; each owner registers its own (the pool and the SQL
 * statements in PrismaService, open sockets in WsConnections, open subscriptions in FeedRegistry),
 * so this module depends on nothing but the configuration and any layer may record into it.
 */
@Injectable()
export class MetricsService {
  readonly enabled: boolean;
  readonly registry = new Registry();
  private readonly commands: Histogram<'command' | 'outcome'>;
  private readonly errors: Counter<'code'>;
  private readonly poolWaits: Histogram;
  private readonly late: Histogram<'kind'>;
  private readonly dueFailures: Counter<'kind'>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.enabled = config.metrics;
    const registers = [this.registry];
    this.commands = new Histogram({
      name: 'dominoes_command_duration_seconds',
      help: 'GraphQL mutations from request to response, by root field (command) and outcome (ok, error).',
      labelNames: ['command', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.errors = new Counter({
      name: 'dominoes_graphql_errors_total',
      help: 'GraphQL errors answered, by extensions.code.',
      labelNames: ['code'],
      registers,
    });
    this.poolWaits = new Histogram({
      name: 'dominoes_db_pool_wait_seconds',
      help: 'Time a statement waited for a free pooled PostgreSQL connection.',
      buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5],
      registers,
    });
    this.late = new Histogram({
      name: 'dominoes_due_work_lateness_seconds',
      help: 'How long past its due time a sweeper claimed an item of due work, by kind.',
      labelNames: ['kind'],
      buckets: LATENESS_BUCKETS,
      registers,
    });
    this.dueFailures = new Counter({
      name: 'dominoes_due_work_failures_total',
      help: 'Runs of due work that threw (the item is retried, backing off), by kind.',
      labelNames: ['kind'],
      registers,
    });
    // Event-loop delay (perf_hooks.monitorEventLoopDelay, reset at each scrape), GC, heap, RSS, CPU.
    if (this.enabled) collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
  }

  command(name: string, seconds: number, ok: boolean): void {
    if (this.enabled) this.commands.observe({ command: name, outcome: ok ? 'ok' : 'error' }, seconds);
  }

  graphqlError(code: string): void {
    if (this.enabled) this.errors.inc({ code });
  }

  poolWait(seconds: number): void {
    if (this.enabled) this.poolWaits.observe(seconds);
  }

  lateness(kind: string, seconds: number): void {
    if (this.enabled) this.late.observe({ kind }, seconds);
  }

  dueWorkFailure(kind: string): void {
    if (this.enabled) this.dueFailures.inc({ kind });
  }

  /** A gauge whose value `read` gives at each scrape. */
  gauge(name: string, help: string, read: () => number): void {
    if (!this.enabled) return;
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect(this: Gauge) {
        this.set(read());
      },
    });
  }

  /** A counter kept by its owner (a running total), read at each scrape. */
  counter(name: string, help: string, read: () => number): void {
    if (!this.enabled) return;
    new Counter({
      name,
      help,
      registers: [this.registry],
      collect(this: Counter) {
        this.reset();
        this.inc(read());
      },
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
