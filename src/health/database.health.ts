import { Injectable, Logger } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { PrismaService } from '../database/prisma.service.js';
import { readMigrations } from '../database/schema-engine.js';

@Injectable()
export class DatabaseHealthIndicator {
  private readonly logger = new Logger('Health');
  private expected: Promise<string[]> | undefined;

  constructor(
    private readonly prisma: PrismaService,
    private readonly indicator: HealthIndicatorService,
  ) {}

  async isReady(key: string): Promise<HealthIndicatorResult> {
    const check = this.indicator.check(key);
    try {
      // The migrations on disk do not change while the process runs: read them once.
      this.expected ??= readMigrations().then((l) => l.migrationDirectories.map((d) => d.path));
      const expected = await this.expected;
      const rows = await this.prisma.$queryRaw<{ migration_name: string }[]>`
        SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
      const applied = new Set(rows.map((r) => r.migration_name));
      const pending = expected.filter((m) => !applied.has(m));
      return pending.length === 0 ? check.up({ migrations: expected.length }) : check.down({ pending });
    } catch (e) {
      // The cause goes to the log; the public answer names none of the database's details.
      this.logger.warn(`readiness: database check failed: ${(e as Error).message}`);
      return check.down({ message: 'database unreachable' });
    }
  }
}
