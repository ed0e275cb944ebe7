import type { WebhookEventType } from './webhook-events.js';

/** An endpoint as stored (the secrets stay in the repository and the delivery worker). */
export interface WebhookRecord {
  id: string;
  playerId: string;
  url: string;
  events: WebhookEventType[];
  rotatedAt: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  /** while held: no attempt before this time, then one at a time until one is delivered */
  heldUntil: Date | null;
  createdAt: Date;
}

/** Attempts a delivery lists: its first cycle and a few redeliveries (`attemptCount` counts them all). */
export const LISTED_ATTEMPTS = 20;

export type MessageStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export interface AttemptRecord {
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** A message of the delivery log with its attempts. */
export interface MessageRecord {
  id: string;
  webhookId: string;
  msgId: string;
  type: string;
  body: string;
  status: MessageStatus;
  dueAt: Date | null;
  attempt: number;
  createdAt: Date;
  /** the latest LISTED_ATTEMPTS, oldest first */
  attempts: AttemptRecord[];
  /** every attempt logged, redeliveries included */
  attemptCount: number;
}

/** What the delivery worker reads to send one message. */
export interface DueMessage {
  id: string;
  msgId: string;
  body: string;
  status: MessageStatus;
  attempt: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  rotatedAt: Date | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  webhookId: string;
  /** the player who owns the endpoint: the claim caps what one owner has in flight */
  ownerId: string;
  /** the end of the lease of the claim this attempt is made under: it identifies the claim (null: not claimed) */
  claimedUntil: Date | null;
}

/** One attempt's outcome as the delivery log and the outbox record it. */
export interface RecordedAttempt {
  messageId: string;
  webhookId: string;
  /** the claim it was made under (DueMessage.claimedUntil): its outcome counts only while the message is still under it */
  claimedUntil: Date | null;
  attempt: AttemptRecord;
  /** the message's status after it */
  status: MessageStatus;
  /** when the next attempt is due, in ms from now; null once settled */
  dueInMs: number | null;
  /** the attempt delivered (the endpoint's failure streak ends) */
  succeeded: boolean;
  /** after a 429 or 503: the Retry-After it asked for, in ms (0 if none); it holds the whole endpoint */
  askedMs: number;
  /** why the endpoint is disabled now, if it is */
  disable: string | null;
}
