import { timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Inject, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { PrismaService } from '../database/prisma.service.js';
import { MatchFeedService } from '../subscriptions/match-feed.service.js';

/** Process figures for the benchmarks; served only with METRICS=true, to bearers of METRICS_TOKEN. */
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly prisma: PrismaService,
    private readonly feeds: MatchFeedService,
  ) {}

  @Get()
  read(@Headers('authorization') authorization: string | undefined): {
    sqlStatements: number;
    openSubscriptions: number;
    rssBytes: number;
    heapUsedBytes: number;
  } {
    const token = this.config.limits.metricsToken;
    if (!this.config.metrics || !token) throw new NotFoundException();
    if (!sameSecret(authorization ?? '', `Bearer ${token}`))
      throw new UnauthorizedException('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    const mem = process.memoryUsage();
    return { sqlStatements: this.prisma.statements, openSubscriptions: this.feeds.openFeeds, rssBytes: mem.rss, heapUsedBytes: mem.heapUsed };
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
