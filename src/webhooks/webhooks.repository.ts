import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { WebhookEventType } from './webhook-events.js';
import { type AttemptRecord, LISTED_ATTEMPTS, type MessageRecord, type WebhookRecord } from './webhook-records.js';

/** The log keeps messages (and their attempts) this long. */
export const RETENTION_DAYS = 14;

const endpointColumns = Prisma.sql`"id", "playerId", "url", "events", "rotatedAt", "disabledAt", "disabledReason", "failingSince", "heldUntil", "createdAt"`;

/**
 * A player's side of webhooks: their endpoints, the delivery log, redelivery. The sweeper's side
 * (claiming, recording, pruning) is WebhookDeliveriesRepository.
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * A new endpoint, unless the player already has `max`: null then, nothing written. The player's
   * row is locked first so that concurrent creates count one after another.
   */
  async create(playerId: string, url: string, events: WebhookEventType[], secret: string, max: number): Promise<WebhookRecord | null> {
    return this.prisma.transaction(async (query) => {
      await query(Prisma.sql`SELECT 1 FROM "Player" WHERE "id" = ${playerId}::uuid FOR NO KEY UPDATE`);
      const [{ n }] = await query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM "Webhook" WHERE "playerId" = ${playerId}::uuid`);
      if (n >= max) return null;
      const rows = await query<WebhookRecord>(Prisma.sql`
        INSERT INTO "Webhook" ("id", "playerId", "url", "events", "secret")
        VALUES (gen_random_uuid(), ${playerId}::uuid, ${url}, ${events}::text[], ${secret})
        RETURNING ${endpointColumns}`);
      return rows[0];
    });
  }

  async list(playerId: string): Promise<WebhookRecord[]> {
    return this.prisma.background(
      Prisma.sql`SELECT ${endpointColumns} FROM "Webhook" WHERE "playerId" = ${playerId}::uuid ORDER BY "createdAt", "id"`,
    );
  }

  async find(id: string, playerId: string): Promise<WebhookRecord | null> {
    const rows = await this.prisma.background<WebhookRecord>(
      Prisma.sql`SELECT ${endpointColumns} FROM "Webhook" WHERE "id" = ${id}::uuid AND "playerId" = ${playerId}::uuid`,
    );
    return rows[0] ?? null;
  }

  /**
   * Changes what is given. Enabling a disabled endpoint, or giving it a new URL, starts its failure
   * streak afresh; a hold it was under ends, but it stays probed: its first message goes alone,
   * and its backlog once that one is delivered. Enabling one that is not disabled changes nothing
   * (it would lift the hold on any failing endpoint, a way round it).
   */
  async update(
    id: string,
    playerId: string,
    change: { url?: string; events?: WebhookEventType[]; enabled?: boolean },
  ): Promise<WebhookRecord | null> {
    const enabled = Prisma.sql`${change.enabled ?? null}::boolean`;
    const afresh = Prisma.sql`((${enabled} AND "disabledAt" IS NOT NULL) OR ${change.url ?? null}::text <> "url")`;
    const rows = await this.prisma.background<WebhookRecord>(Prisma.sql`
      UPDATE "Webhook" SET
        "url" = COALESCE(${change.url ?? null}::text, "url"),
        "events" = COALESCE(${change.events ?? null}::text[], "events"),
        "disabledAt" = CASE WHEN ${enabled} IS NULL THEN "disabledAt" WHEN ${enabled} THEN NULL ELSE COALESCE("disabledAt", now()) END,
        "disabledReason" = CASE WHEN ${enabled} IS NULL THEN "disabledReason" WHEN ${enabled} THEN NULL ELSE COALESCE("disabledReason", 'disabled by its owner') END,
        "failingSince" = CASE WHEN ${afresh} THEN NULL ELSE "failingSince" END,
        "failureStreak" = CASE WHEN ${afresh} THEN 0 ELSE "failureStreak" END,
        "heldUntil" = CASE WHEN ${afresh} AND "heldUntil" > now() THEN now() ELSE "heldUntil" END
      WHERE "id" = ${id}::uuid AND "playerId" = ${playerId}::uuid
      RETURNING ${endpointColumns}`);
    return rows[0] ?? null;
  }

  async delete(id: string, playerId: string): Promise<boolean> {
    const rows = await this.prisma.background(
      Prisma.sql`DELETE FROM "Webhook" WHERE "id" = ${id}::uuid AND "playerId" = ${playerId}::uuid RETURNING "id"`,
    );
    return rows.length > 0;
  }

  /** The new secret becomes current; the current one is kept as the previous one (signing with both for a while). */
  async rotate(id: string, playerId: string, secret: string): Promise<WebhookRecord | null> {
    const rows = await this.prisma.background<WebhookRecord>(Prisma.sql`
      UPDATE "Webhook" SET "previousSecret" = "secret", "secret" = ${secret}, "rotatedAt" = now()
      WHERE "id" = ${id}::uuid AND "playerId" = ${playerId}::uuid
      RETURNING ${endpointColumns}`);
    return rows[0] ?? null;
  }

  /** A page of an endpoint's messages, newest first, after a keyset cursor; with their attempts in order. */
  messages(webhookId: string, limit: number, after: { createdAt: Date; id: string } | null): Promise<MessageRecord[]> {
    const keyset = after ? Prisma.sql`AND (m."createdAt", m."id") < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
    return this.selectMessages(Prisma.sql`m."webhookId" = ${webhookId}::uuid ${keyset}`, limit);
  }

  /** The message, if it belongs to one of this player's endpoints. */
  async message(id: string, playerId: string): Promise<MessageRecord | null> {
    const owned = Prisma.sql`m."id" = ${id}::uuid AND EXISTS (SELECT 1 FROM "Webhook" w WHERE w."id" = m."webhookId" AND w."playerId" = ${playerId}::uuid)`;
    return (await this.selectMessages(owned, 1))[0] ?? null;
  }

  /**
   * With the latest LISTED_ATTEMPTS attempts of each message, oldest first, and the count of all:
   * redeliveries can grow one message's log without bound, and a page of them must not.
   */
  private async selectMessages(where: Prisma.Sql, limit: number): Promise<MessageRecord[]> {
    type Row = Omit<MessageRecord, 'attempts'> & { attempts: (Omit<AttemptRecord, 'at'> & { at: string })[] | null };
    const rows = await this.prisma.background<Row>(Prisma.sql`
      SELECT m."id", m."webhookId", m."msgId", m."type", m."body", m."status", m."attempt", m."createdAt",
             -- a message of a held endpoint is not attempted before the hold ends
             CASE WHEN m."dueAt" IS NOT NULL
                  THEN GREATEST(m."dueAt", (SELECT w."heldUntil" FROM "Webhook" w WHERE w."id" = m."webhookId" AND w."disabledAt" IS NULL)) END AS "dueAt",
             (SELECT json_agg(json_build_object('at', a."at", 'statusCode', a."statusCode", 'error', a."error", 'durationMs', a."durationMs") ORDER BY a."at", a."id")
                FROM (SELECT * FROM "WebhookAttempt" l WHERE l."messageId" = m."id" ORDER BY l."at" DESC, l."id" DESC LIMIT ${LISTED_ATTEMPTS}::int) a) AS "attempts",
             (SELECT count(*)::int FROM "WebhookAttempt" c WHERE c."messageId" = m."id") AS "attemptCount"
      FROM "WebhookMessage" m
      WHERE ${where}
      ORDER BY m."createdAt" DESC, m."id" DESC
      LIMIT ${limit}::int`);
    return rows.map((r) => ({ ...r, attempts: (r.attempts ?? []).map((a) => ({ ...a, at: new Date(a.at) })) }));
  }

  /**
   * Schedules a message again, due now, with a fresh attempt count; same row, so the same
   * `webhook-id`. A held endpoint's hold ends: this message, not tried since, is its next probe. Not while an attempt of it is in flight (claimed, its lease not over): made due,
   * it would be claimed and sent again at once, beside that attempt, which is the redelivery.
   * @returns whether it was scheduled
   */
  async redeliver(id: string): Promise<boolean> {
    const rows = await this.prisma.background(Prisma.sql`
      WITH message AS (
        UPDATE "WebhookMessage" SET "status" = 'PENDING', "dueAt" = now(), "attempt" = 0, "claimedUntil" = NULL
        WHERE "id" = ${id}::uuid AND ("claimedUntil" IS NULL OR "claimedUntil" <= now())
        RETURNING "id", "webhookId"),
      endpoint AS (
        UPDATE "Webhook" w SET "heldUntil" = now() FROM message WHERE w."id" = message."webhookId" AND w."heldUntil" > now())
      SELECT "id" FROM message`);
    return rows.length > 0;
  }
}
