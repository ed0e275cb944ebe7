import { Injectable } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client.js';
import { CommitContributions, type CommitContributor } from '../matches/commit-contributions.js';
import type { Commit } from '../matches/loaded-match.js';
import { webhookBody, webhookEventsOf } from './webhook-events.js';

/**
 * The outbox's write side. Like the stats writer, it writes nothing by itself: it returns the
 * data-modifying CTE that the command's single commit statement carries, guarded by the
 * compare-and-set. One message row per (subscribed, enabled endpoint × event), the endpoints
 * selected inside the statement: no extra round trip, and nothing written when the commit is
 * not. A crash after the commit loses nothing: the rows are due at once, for any instance.
 */
@Injectable()
export class WebhookOutbox implements CommitContributor {
  constructor(contributions: CommitContributions) {
    contributions.register(this);
  }

  /**
   * @param seats who sits in each seat once the commit holds (null: a bot or a free seat)
   * @param guard a condition that holds only when the commit's compare-and-set did
   */
  ctes(c: Commit, seats: readonly (string | null)[], guard: Prisma.Sql): Prisma.Sql[] {
    const events = webhookEventsOf(c, seats);
    if (events.length === 0) return [];
    const at = new Date();
    return [
      Prisma.sql`webhook_outbox AS (
        INSERT INTO "WebhookMessage" ("id", "webhookId", "msgId", "type", "body", "dueAt")
        SELECT gen_random_uuid(), w."id", 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.type, e.body, now()
        FROM unnest(${events.map((e) => e.playerId)}::uuid[], ${events.map((e) => e.type)}::text[], ${events.map((e) => webhookBody(e, at))}::text[])
          AS e(player, type, body)
        JOIN "Webhook" w ON w."playerId" = e.player AND e.type = ANY(w."events") AND w."disabledAt" IS NULL
        WHERE ${guard})`,
    ];
  }
}
