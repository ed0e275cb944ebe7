import { Controller, Get, Inject, NotFoundException } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { PrismaService } from '../database/prisma.service.js';
import { MatchFeedService } from '../subscriptions/match-feed.service.js';

/** Process figures for the benchmarks; served only with METRICS=true. */
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly prisma: PrismaService,
    private readonly feeds: MatchFeedService,
  ) {}

  @Get()
  read(): { sqlStatements: number; openSubscriptions: number; rssBytes: number; heapUsedBytes: number } {
    if (!this.config.metrics) throw new NotFoundException();
    const mem = process.memoryUsage();
    return { sqlStatements: this.prisma.statements, openSubscriptions: this.feeds.openFeeds, rssBytes: mem.rss, heapUsedBytes: mem.heapUsed };
  }
}
