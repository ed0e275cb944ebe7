import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { PrismaService } from '../database/prisma.service.js';
import { FeedRegistry } from './feed-registry.js';

/**
 * A backstop for signals that never came. A command signals its commit after the commit, from
 * its own process: a crash in between, a NOTIFY that failed, or a commit whose answer the
 * connection lost leaves the match's feeds (on every instance, with PUBSUB=postgres) waiting for
 * events that are in the table. Every FEED_RECHECK_MS one statement reads the newest event of
 * each match watched here; a feed behind it reads what it missed from the table, as after a
 * resync. Signals still carry every event at once: this only bounds how late a lost one is.
 */
@Injectable()
export class FeedRecheck implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(FeedRecheck.name);
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly registry: FeedRegistry,
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.feedRecheckMs <= 0) return;
    this.timer = setInterval(() => void this.recheck(), this.config.feedRecheckMs);
    this.timer.unref();
  }

  /** Tells the feeds of every watched match whose table is ahead of its signals to read it. */
  async recheck(): Promise<void> {
    const watched = this.registry.watchedMatches();
    if (this.running || watched.length === 0) return;
    this.running = true;
    try {
      const rows = await this.prisma.background<{ id: string; lastEventSeq: number }>(
        Prisma.sql`SELECT "id"::text AS "id", "lastEventSeq" FROM "Match" WHERE "id" = ANY(${watched}::uuid[])`,
      );
      for (const row of rows) this.registry.behind(row.id, row.lastEventSeq);
    } catch (e) {
      this.logger.warn(`feed re-check failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.running = false;
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
