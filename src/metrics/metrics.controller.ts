import { timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Inject, NotFoundException, Res, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { MetricsService } from './metrics.service.js';

/** The Prometheus text format; served only with METRICS=true, to bearers of METRICS_TOKEN. */
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  @Get()
  async read(@Headers('authorization') authorization: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    const token = this.config.limits.metricsToken;
    if (!this.config.metrics || !token) throw new NotFoundException();
    if (!sameSecret(authorization ?? '', `Bearer ${token}`))
      throw new UnauthorizedException('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    const text = await this.metrics.text();
    await reply.header('content-type', this.metrics.contentType).header('cache-control', 'no-store').send(text);
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
