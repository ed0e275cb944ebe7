import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DATABASE_URL } from './database.tokens.js';

/**
 * The one Prisma client of the process, over node-postgres (Prisma 7's driver adapter: no query
 * engine binary). It connects lazily, on the first query.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  /** SQL statements sent so far; counted only with METRICS=true (benchmarks read it). */
  statements = 0;

  constructor(@Inject(DATABASE_URL) url: string, @Inject(APP_CONFIG) config: AppConfig) {
    super({
      adapter: new PrismaPg({ connectionString: url, max: config.dbPoolSize }),
      ...(config.metrics ? { log: [{ emit: 'event' as const, level: 'query' as const }] } : {}),
    });
    if (config.metrics) (this as unknown as { $on(e: 'query', cb: () => void): void }).$on('query', () => this.statements++);
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
