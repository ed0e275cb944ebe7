import { UseGuards } from '@nestjs/common';
import { Args, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { ApiError } from '../common/api-error.js';
import { AuthGuard, CurrentPlayer } from '../players/auth.js';
import { Player } from '../players/models/player.model.js';
import { RateLimited } from '../rate-limits/rate-limit.guard.js';
import { CreateWebhookInput, UpdateWebhookInput, Webhook, WebhookDelivery, WebhookDeliveryConnection, WebhookWithSecret } from './webhooks.models.js';
import { WebhooksService } from './webhooks.service.js';

/** The webhook API: thin, the service does the rest. Every operation acts on the caller's own endpoints. */
@Resolver(() => Player)
export class WebhooksResolver {
  constructor(private readonly webhooks: WebhooksService) {}

  // Nullable so that refusing it (FORBIDDEN) nulls this field alone: registerPlayer's player,
  // asked for it by a caller not yet authenticated, must not take the token (shown once) with it.
  @ResolveField('webhooks', () => [Webhook], {
    nullable: true,
    description:
      "The caller's webhook endpoints, oldest first. Only on the caller's own Player (as on `me`, or their own seat's player): null on anyone else's, with a FORBIDDEN error (registerPlayer's player included).",
  })
  webhooksOf(@Parent() player: Player, @CurrentPlayer() viewer: Player | null): Promise<Webhook[] | null> {
    if (viewer?.id !== player.id) throw new ApiError('FORBIDDEN', "a player's webhooks are theirs alone: ask for them on `me`");
    return this.webhooks.list(player.id);
  }

  @Mutation(() => WebhookWithSecret, {
    description:
      'Adds a webhook endpoint for the caller; returns it with its signing secret, shown only here. Messages are signed per the Standard Webhooks spec (README "Receiving webhooks").',
  })
  @UseGuards(AuthGuard)
  @RateLimited('webhooks')
  createWebhook(@CurrentPlayer() me: Player, @Args('input') input: CreateWebhookInput): Promise<WebhookWithSecret> {
    return this.webhooks.create(me.id, input.url, input.events);
  }

  @Mutation(() => Webhook, { description: "Changes an endpoint's URL, events or enabled state." })
  @UseGuards(AuthGuard)
  @RateLimited('webhooks')
  updateWebhook(@CurrentPlayer() me: Player, @Args('id', { type: () => ID }) id: string, @Args('input') input: UpdateWebhookInput): Promise<Webhook> {
    return this.webhooks.update(me.id, id, input);
  }

  @Mutation(() => Boolean, { description: 'Deletes an endpoint with its delivery log; its pending messages are not sent.' })
  @UseGuards(AuthGuard)
  @RateLimited('webhooks')
  deleteWebhook(@CurrentPlayer() me: Player, @Args('id', { type: () => ID }) id: string): Promise<boolean> {
    return this.webhooks.delete(me.id, id);
  }

  @Mutation(() => WebhookWithSecret, {
    description: 'A new signing secret (shown only here). For 24 h, messages carry signatures with both the new and the previous secret.',
  })
  @UseGuards(AuthGuard)
  @RateLimited('webhooks')
  rotateWebhookSecret(@CurrentPlayer() me: Player, @Args('id', { type: () => ID }) id: string): Promise<WebhookWithSecret> {
    return this.webhooks.rotate(me.id, id);
  }

  @Query(() => WebhookDeliveryConnection, { description: "An endpoint's messages of the last 14 days with their attempts, newest first." })
  @UseGuards(AuthGuard)
  webhookDeliveries(
    @CurrentPlayer() me: Player,
    @Args('webhookId', { type: () => ID }) webhookId: string,
    @Args('first', { type: () => Int, nullable: true, description: '1..100, default 20.' }) first?: number | null,
    @Args('after', { type: () => String, nullable: true, description: 'endCursor of the previous page.' }) after?: string | null,
  ): Promise<WebhookDeliveryConnection> {
    return this.webhooks.deliveries(me.id, webhookId, { first, after });
  }

  @Mutation(() => WebhookDelivery, {
    description:
      'Sends a message again, now, with the same `webhook-id` (and new retries if it fails). While an attempt of it is in flight, that attempt is the redelivery: nothing more is sent.',
  })
  @UseGuards(AuthGuard)
  @RateLimited('webhooks')
  redeliverWebhook(@CurrentPlayer() me: Player, @Args('deliveryId', { type: () => ID }) deliveryId: string): Promise<WebhookDelivery> {
    return this.webhooks.redeliver(me.id, deliveryId);
  }
}
