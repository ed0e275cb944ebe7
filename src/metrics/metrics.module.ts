import { Module } from '@nestjs/common';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module.js';
import { MetricsController } from './metrics.controller.js';

@Module({ imports: [SubscriptionsModule], controllers: [MetricsController] })
export class MetricsModule {}
