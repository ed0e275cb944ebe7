import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { canonicalId } from '../common/ids.js';
import { decodeCursor, encodeCursor, pageSize } from '../common/pagination.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { WEBHOOK_EVENTS, type WebhookEventType } from './webhook-events.js';
import type { MessageRecord, WebhookRecord } from './webhook-records.js';
import { newSecret } from './webhook-signer.js';
import {
  Webhook,
  WebhookDelivery,
  WebhookDeliveryConnection,
  WebhookEvent,
  WebhookDeliveryStatus,
  type WebhookWithSecret,
} from './webhooks.models.js';
import type { WebhooksConfig } from '../config/webhooks.config.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { urlProblem } from './ssrf-guard.js';

/** A player's endpoints: validation, the cap, secrets, the delivery log and redelivery. */
@Injectable()
export class WebhooksService {
  private readonly settings: WebhooksConfig;

  constructor(
    private readonly repo: WebhooksRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.settings = config.webhooks;
  }

  async create(playerId: string, url: string, events: readonly WebhookEvent[]): Promise<WebhookWithSecret> {
    this.checkUrl(url);
    const secret = newSecret();
    const created = await this.repo.create(playerId, url, this.checkEvents(events), secret, this.settings.maxPerPlayer);
    if (!created) {
      throw new ApiError('TOO_MANY_WEBHOOKS', `a player may have at most ${this.settings.maxPerPlayer} webhooks; delete one first`, {
        limit: this.settings.maxPerPlayer,
      });
    }
    return { webhook: toWebhook(created), secret };
  }

  async list(playerId: string): Promise<Webhook[]> {
    return (await this.repo.list(playerId)).map(toWebhook);
  }

  async update(
    playerId: string,
    id: string,
    change: { url?: string | null; events?: WebhookEvent[] | null; enabled?: boolean | null },
  ): Promise<Webhook> {
    id = canonicalId(id, 'webhook');
    if (change.url !== undefined && change.url !== null) this.checkUrl(change.url);
    const updated = await this.repo.update(id, playerId, {
      url: change.url ?? undefined,
      events: change.events ? this.checkEvents(change.events) : undefined,
      enabled: change.enabled ?? undefined,
    });
    return toWebhook(updated ?? notFound(id));
  }

  async delete(playerId: string, id: string): Promise<boolean> {
    id = canonicalId(id, 'webhook');
    if (!(await this.repo.delete(id, playerId))) notFound(id);
    return true;
  }

  async rotate(playerId: string, id: string): Promise<WebhookWithSecret> {
    id = canonicalId(id, 'webhook');
    const secret = newSecret();
    const rotated = (await this.repo.rotate(id, playerId, secret)) ?? notFound(id);
    return { webhook: toWebhook(rotated), secret };
  }

  async deliveries(playerId: string, webhookId: string, args: { first?: number | null; after?: string | null }): Promise<WebhookDeliveryConnection> {
    webhookId = canonicalId(webhookId, 'webhook');
    const limit = pageSize(args.first);
    const after = args.after ? decodeCursor(args.after) : null;
    if (!(await this.repo.find(webhookId, playerId))) notFound(webhookId);
    const rows = await this.repo.messages(webhookId, limit + 1, after);
    const page = rows.slice(0, limit);
    const edges = page.map((m) => ({ cursor: encodeCursor(m.createdAt, m.id), node: toDelivery(m) }));
    return { edges, pageInfo: { hasNextPage: rows.length > limit, endCursor: edges.at(-1)?.cursor ?? null } };
  }

  /** Sends a message again, due now, with its own `webhook-id`; refused while its endpoint is disabled. */
  async redeliver(playerId: string, deliveryId: string): Promise<WebhookDelivery> {
    deliveryId = canonicalId(deliveryId, 'delivery');
    const m = (await this.repo.message(deliveryId, playerId)) ?? notFound(deliveryId, 'delivery');
    const endpoint = (await this.repo.find(m.webhookId, playerId)) ?? notFound(m.webhookId);
    if (endpoint.disabledAt) throw new ApiError('BAD_USER_INPUT', 'the webhook is disabled: enable it with updateWebhook first');
    // While an attempt of it is in flight, that attempt is the redelivery: nothing is scheduled.
    await this.repo.redeliver(deliveryId);
    return toDelivery((await this.repo.message(deliveryId, playerId)) ?? notFound(deliveryId, 'delivery'));
  }

  private checkUrl(url: string): void {
    const problem = urlProblem(url, this.settings.allowPrivate);
    if (problem) throw new ApiError('BAD_USER_INPUT', problem, { field: 'url' });
  }

  private checkEvents(events: readonly WebhookEvent[]): WebhookEventType[] {
    const unique = [...new Set(events)] as WebhookEventType[];
    if (unique.length === 0) throw new ApiError('BAD_USER_INPUT', 'events must name at least one WebhookEvent', { field: 'events' });
    if (unique.some((e) => !WEBHOOK_EVENTS.includes(e))) throw new ApiError('BAD_USER_INPUT', 'events holds an unknown WebhookEvent');
    return unique;
  }
}

function notFound(id: string, what = 'webhook'): never {
  throw new ApiError('NOT_FOUND', `no ${what} ${id} of yours`);
}

function toWebhook(w: WebhookRecord): Webhook {
  return {
    id: w.id,
    url: w.url,
    events: w.events as WebhookEvent[],
    enabled: w.disabledAt === null,
    disabledAt: w.disabledAt,
    disabledReason: w.disabledReason,
    failingSince: w.failingSince,
    // A disabled endpoint's messages fail without an attempt: no hold to wait for.
    heldUntil: w.disabledAt === null ? w.heldUntil : null,
    secretRotatedAt: w.rotatedAt,
    createdAt: w.createdAt,
  };
}

function toDelivery(m: MessageRecord): WebhookDelivery {
  return {
    id: m.id,
    webhookMessageId: m.msgId,
    type: m.type as WebhookEvent,
    payload: m.body,
    status: m.status as WebhookDeliveryStatus,
    nextAttemptAt: m.status === 'PENDING' ? m.dueAt : null,
    createdAt: m.createdAt,
    attempts: m.attempts,
    attemptCount: m.attemptCount,
  };
}
