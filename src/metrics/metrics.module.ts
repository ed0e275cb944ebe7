import { Global, Module } from '@nestjs/common';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module.js';
import { MetricsSources } from './metrics-sources.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsService } from './metrics.service.js';

/** GET /metrics, and the MetricsService any module may record into (global). */
@Global()
@Module({ imports: [SubscriptionsModule], providers: [MetricsService, MetricsSources], controllers: [MetricsController], exports: [MetricsService] })
export class MetricsModule {}
