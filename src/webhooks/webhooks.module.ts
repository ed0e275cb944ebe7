import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module.js';
import { WebhookOutbox } from './webhook-outbox.js';
import { WebhookDeliveryKind } from './webhook-delivery.kind.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksResolver } from './webhooks.resolver.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * Webhooks: players' endpoints and the delivery of the outbox. The outbox rows themselves are
 * written by the match commit: WebhookOutbox registers its CTE with the commit statement's
 * contributions when the module starts.
 */
@Module({
  imports: [MatchesModule],
  providers: [WebhookOutbox, WebhooksRepository, WebhookDeliveriesRepository, WebhooksService, WebhooksResolver, WebhookDeliveryKind],
})
export class WebhooksModule {}
