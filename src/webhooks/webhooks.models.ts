import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { PageInfo } from '../common/pagination.js';
import { LISTED_ATTEMPTS } from './webhook-records.js';

/* The webhook API's GraphQL shapes (README "Receiving webhooks"). */

export enum WebhookEvent {
  TURN = 'TURN',
  MATCH_STARTED = 'MATCH_STARTED',
  MATCH_FINISHED = 'MATCH_FINISHED',
  DEADLINE_SOON = 'DEADLINE_SOON',
  TIMED_OUT = 'TIMED_OUT',
  REMATCH_OFFERED = 'REMATCH_OFFERED',
  PLAYER_JOINED = 'PLAYER_JOINED',
  PLAYER_LEFT = 'PLAYER_LEFT',
  MATCH_EXPIRED = 'MATCH_EXPIRED',
}
registerEnumType(WebhookEvent, {
  name: 'WebhookEvent',
  description: "What a webhook endpoint is told of; the message body's `type`.",
  valuesMap: {
    TURN: { description: 'A commit began your turn (data: matchId, matchVersion, seat, round).' },
    MATCH_STARTED: { description: 'A match you sit in started (data: matchId, matchVersion, seat).' },
    MATCH_FINISHED: { description: 'A match you sit in finished (data: matchId, matchVersion, seat, winnerTeam, won).' },
    DEADLINE_SOON: {
      description:
        "80 % of your turn's time is gone, at most once per turn (not when the server first reaches the turn after its deadline) (data: matchId, matchVersion, seat, deadline).",
    },
    TIMED_OUT: { description: 'A seat of a match you sit in ran out of time (data: matchId, matchVersion, seat: yours, timedOutSeat).' },
    REMATCH_OFFERED: {
      description:
        "Another player of a FINISHED match you played created its rematch (data: matchId: the finished match's, matchVersion, seat: yours, offeredBySeat); join it with rematch(matchId).",
    },
    PLAYER_JOINED: {
      description:
        'Another player took a seat of a WAITING match you sit in, and it still waits for more (data: matchId, matchVersion, seat: yours, joinedSeat). A join that fills the table is MATCH_STARTED instead.',
    },
    PLAYER_LEFT: { description: 'Another player left a WAITING match you sit in (data: matchId, matchVersion, seat: yours, leftSeat).' },
    MATCH_EXPIRED: {
      description: 'Nobody joined a WAITING match you sit in within OPEN_MATCH_TTL_HOURS: it is ABANDONED (data: matchId, matchVersion, seat).',
    },
  },
});

export enum WebhookDeliveryStatus {
  PENDING = 'PENDING',
  DELIVERED = 'DELIVERED',
  FAILED = 'FAILED',
}
registerEnumType(WebhookDeliveryStatus, {
  name: 'WebhookDeliveryStatus',
  description: 'Where a message stands.',
  valuesMap: {
    PENDING: { description: 'Not delivered yet: an attempt is due at nextAttemptAt.' },
    DELIVERED: { description: 'An attempt was answered with a 2xx.' },
    FAILED: { description: 'The retries ran out, the endpoint answered 410, or the endpoint is disabled.' },
  },
});

@ObjectType({ description: "One of the caller's webhook endpoints. The secret is shown only by createWebhook and rotateWebhookSecret." })
export class Webhook {
  @Field(() => ID, { description: 'Pass to updateWebhook, deleteWebhook, rotateWebhookSecret and webhookDeliveries.' })
  id!: string;
  @Field({ description: 'Where messages are POSTed.' })
  url!: string;
  @Field(() => [WebhookEvent], { description: 'The events sent to it.' })
  events!: WebhookEvent[];
  @Field({ description: 'False once disabled (see disabledReason); updateWebhook(enabled: true) turns it back on.' })
  enabled!: boolean;
  @Field(() => Date, { nullable: true })
  disabledAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'Why it was disabled: a 410 answer, 5 days of failures, or its owner.' })
  disabledReason!: string | null;
  @Field(() => Date, { nullable: true, description: 'The first failed attempt since the last success; null while healthy.' })
  failingSince!: Date | null;
  @Field(() => Date, {
    nullable: true,
    description:
      'Set once the endpoint fails in earnest (5 attempts in a row, or a 429/503 asking for time with Retry-After): no message is attempted before this time, then one at a time until one is delivered, which clears it and sends the rest. Each failed attempt meanwhile sets it again, as far ahead as the endpoint has been failing (from the first delay of the retry schedule up to its longest), or as far as a Retry-After asks when that is longer (up to 24 h). redeliverWebhook ends it at once (that message goes next), as do a new url and enabling a disabled endpoint. Null while not held, and while disabled. Once its time has passed it stays until the next attempt (the probe) settles it: a delivery clears it, a failure sets it again.',
  })
  heldUntil!: Date | null;
  @Field(() => Date, { nullable: true, description: 'The last secret rotation: for 24 h after it, messages carry both signatures.' })
  secretRotatedAt!: Date | null;
  @Field({ description: 'When it was added.' })
  createdAt!: Date;
}

@ObjectType({ description: 'An endpoint and its signing secret, shown this once.' })
export class WebhookWithSecret {
  @Field(() => Webhook)
  webhook!: Webhook;
  @Field({ description: 'The Standard Webhooks signing secret (`whsec_…`): verify every message with it.' })
  secret!: string;
}

@ObjectType({ description: 'One HTTP attempt of a message.' })
export class WebhookAttempt {
  @Field({ description: 'When it was sent.' })
  at!: Date;
  @Field(() => Int, { nullable: true, description: 'The HTTP status answered; null when none came (see error).' })
  statusCode!: number | null;
  @Field(() => String, { nullable: true, description: 'Why no status came: a timeout, a refused connection, a refused address.' })
  error!: string | null;
  @Field(() => Int, { description: 'From sending to the answer, in ms.' })
  durationMs!: number;
}

@ObjectType({ description: 'A message to one endpoint, with every attempt to deliver it.' })
export class WebhookDelivery {
  @Field(() => ID, { description: 'Pass to redeliverWebhook.' })
  id!: string;
  @Field({ description: 'The `webhook-id` header: the same on every attempt and redelivery.' })
  webhookMessageId!: string;
  @Field(() => WebhookEvent, { description: "The event: the body's `type`." })
  type!: WebhookEvent;
  @Field({ description: 'The JSON body, exactly as signed and sent.' })
  payload!: string;
  @Field(() => WebhookDeliveryStatus, { description: 'Where it stands: PENDING until an attempt delivers it or it fails for good.' })
  status!: WebhookDeliveryStatus;
  @Field(() => Date, { nullable: true, description: "When the next attempt is due (PENDING only); not before its endpoint's heldUntil." })
  nextAttemptAt!: Date | null;
  @Field()
  createdAt!: Date;
  @Field(() => [WebhookAttempt], {
    description: `The latest ${LISTED_ATTEMPTS} attempts, oldest first: every attempt of a message redelivered no more than a few times.`,
  })
  attempts!: WebhookAttempt[];
  @Field(() => Int, { description: 'Every attempt logged for this message, redeliveries included (attempts lists the latest).' })
  attemptCount!: number;
}

@ObjectType({ description: 'A delivery with its cursor.' })
export class WebhookDeliveryEdge {
  @Field({ description: 'Pass as `after` to continue after this delivery.' })
  cursor!: string;
  @Field(() => WebhookDelivery)
  node!: WebhookDelivery;
}

@ObjectType({ description: "An endpoint's messages of the last 14 days, newest first." })
export class WebhookDeliveryConnection {
  @Field(() => PageInfo)
  pageInfo!: PageInfo;
  @Field(() => [WebhookDeliveryEdge])
  edges!: WebhookDeliveryEdge[];
}

@InputType({ description: 'A new endpoint.' })
export class CreateWebhookInput {
  @Field({ description: 'An https:// URL of a public address (http:// and private addresses only with WEBHOOK_ALLOW_PRIVATE=true).' })
  url!: string;
  @Field(() => [WebhookEvent], { description: 'At least one.' })
  events!: WebhookEvent[];
}

@InputType({ description: 'What to change of an endpoint; fields left out stay.' })
export class UpdateWebhookInput {
  @Field(() => String, { nullable: true })
  url?: string | null;
  @Field(() => [WebhookEvent], { nullable: true })
  events?: WebhookEvent[] | null;
  @Field(() => Boolean, {
    nullable: true,
    description:
      'false disables it; true enables a disabled one again and clears its failure streak (its first message then goes alone if it was held).',
  })
  enabled?: boolean | null;
}
