import { WEBHOOK_EVENTS } from '../../src/webhooks/webhook-events.js';
import { M_CREATE, type MatchT } from './fragments.js';
import type { GqlClient } from './gql.js';

export const M_CREATE_WEBHOOK = `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { id url events enabled } } }`;
export const M_ROTATE_WEBHOOK = `mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook { id secretRotatedAt } } }`;
export const M_UPDATE_WEBHOOK = `mutation($id: ID!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { id url events enabled disabledReason } }`;
export const M_DELETE_WEBHOOK = `mutation($id: ID!) { deleteWebhook(id: $id) }`;
export const M_REDELIVER = `mutation($id: ID!) { redeliverWebhook(deliveryId: $id) { id webhookMessageId status } }`;
export const Q_MY_WEBHOOKS = `{ me { webhooks { id url events enabled disabledAt disabledReason failingSince } } }`;
export const Q_DELIVERIES = `query($id: ID!, $first: Int, $after: String) {
  webhookDeliveries(webhookId: $id, first: $first, after: $after) {
    pageInfo { hasNextPage endCursor }
    edges { cursor node { id webhookMessageId type payload status nextAttemptAt createdAt attemptCount attempts { at statusCode error durationMs } } }
  }
}`;

export const ALL_EVENTS: string[] = [...WEBHOOK_EVENTS];

export interface DeliveryT {
  id: string;
  webhookMessageId: string;
  type: string;
  payload: string;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  nextAttemptAt: string | null;
  createdAt: string;
  attempts: { at: string; statusCode: number | null; error: string | null; durationMs: number }[];
  attemptCount: number;
}

export async function createWebhook(client: GqlClient, url: string, events = ALL_EVENTS): Promise<{ id: string; secret: string }> {
  const { createWebhook } = await client.request<{ createWebhook: { secret: string; webhook: { id: string } } }>(M_CREATE_WEBHOOK, {
    input: { url, events },
  });
  return { id: createWebhook.webhook.id, secret: createWebhook.secret };
}

export async function deliveries(client: GqlClient, webhookId: string, first = 100): Promise<DeliveryT[]> {
  const res = await client.request<{ webhookDeliveries: { edges: { node: DeliveryT }[] } }>(Q_DELIVERIES, { id: webhookId, first });
  return res.webhookDeliveries.edges.map((e) => e.node);
}

/** A 2-seat match against a bot: it starts at once (MATCH_STARTED, and TURN when the human leads). */
export async function botMatch(p: GqlClient): Promise<MatchT> {
  return (await p.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, bots: 1 } })).createMatch;
}
