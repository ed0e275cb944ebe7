import { Module } from '@nestjs/common';
import { WebhookDeliveryKind } from './webhook-delivery.kind.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksResolver } from './webhooks.resolver.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * Webhooks: players' endpoints and the delivery of the outbox. The outbox rows themselves are
 * written by the match commit (WebhookOutbox, provided to MatchesModule).
 */
@Module({ providers: [WebhooksRepository, WebhooksService, WebhooksResolver, WebhookDeliveryKind] })
export class WebhooksModule {}
