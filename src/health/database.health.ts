import { Injectable, Logger } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { PrismaService } from '../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import { readMigrations } from '../database/schema-engine.js';

/** How long one readiness answer is reused (/health/ready is not rate-limited: see http-rate-limit.ts). */
const READY_REUSE_MS = 1_000;
/**
 * How long the check may take before the answer is "unreachable": a database gone silent would
 * otherwise hold the probe for the pool's acquire timeout or longer, past most probes' own timeout.
 */
const READY_TIMEOUT_MS = 2_000;

@Injectable()
export class DatabaseHealthIndicator {
  private readonly logger = new Logger('Health');
  private expected: Promise<string[]> | undefined;
  private last: { at: number; answer: Promise<HealthIndicatorResult> } | undefined;

  constructor(
    private readonly prisma: PrismaService,
    private readonly indicator: HealthIndicatorService,
  ) {}

  /** Reads the migrations on disk at start-up, so that no probe waits for the file system. */
  onApplicationBootstrap(): void {
    void this.migrationsOnDisk();
  }

  /** The migrations on disk do not change while the process runs: read once. */
  private migrationsOnDisk(): Promise<string[]> {
    this.expected ??= readMigrations().then((l) => l.migrationDirectories.map((d) => d.path));
    return this.expected;
  }

  /**
   * Probes share one check at a time and reuse its answer for a second: a flood of them (the
   * health checks spend no rate limit, so orchestrators are never refused) then costs the pool
   * that player commands use one statement a second, not one per probe.
   */
  isReady(key: string): Promise<HealthIndicatorResult> {
    const now = Date.now();
    if (!this.last || now - this.last.at >= READY_REUSE_MS) this.last = { at: now, answer: this.check(key) };
    return this.last.answer;
  }

  private async check(key: string): Promise<HealthIndicatorResult> {
    const check = this.indicator.check(key);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    });
    try {
      return await Promise.race([this.query(check), late]);
    } catch (e) {
      // The cause goes to the log; the public answer names none of the database's details.
      this.logger.warn(`readiness: database check failed: ${(e as Error).message}`);
      return check.down({ message: 'database unreachable' });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Up when every migration on disk is applied. The statement goes straight to the pool, not
   * through Prisma's client: in a process whose first client query this was, the client's own
   * start-up took the first probe on a busy machine past READY_TIMEOUT_MS.
   */
  private async query(check: ReturnType<HealthIndicatorService['check']>): Promise<HealthIndicatorResult> {
    const expected = await this.migrationsOnDisk();
    const rows = await this.prisma.background<{ migration_name: string }>(
      Prisma.sql`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Set(rows.map((r) => r.migration_name));
    const pending = expected.filter((m) => !applied.has(m));
    return pending.length === 0 ? check.up({ migrations: expected.length }) : check.down({ pending });
  }
}
