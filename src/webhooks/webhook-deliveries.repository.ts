import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { DueMessage, MessageStatus, RecordedAttempt } from './webhook-records.js';
import { RETENTION_DAYS } from './webhooks.repository.js';
import { HOLD_AFTER_FAILURES } from './retry-policy.js';

/** The sweeper's side of webhooks: claiming due messages, recording attempts, pruning the log. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Claims up to `limit` due messages, at most `perOwner` of one player's endpoints together, less
   * what this instance already has in flight to them (`running`, by owner): an endpoint with a
   * backlog, or several that never answer, cannot take every slot (one owner may have many
   * endpoints, so a cap per endpoint would not do). Slots go to the owners with the fewest
   * attempts in flight first (a message's load: its owner's attempts in flight, plus its rank among
   * that owner's due messages), then to the oldest due: when a few owners' receivers hang and hold
   * every slot, each slot that frees goes to someone else's message, not to the next of their
   * backlogs.
   *
   * A held endpoint (retry-policy.ts, HOLD_AFTER_FAILURES) offers no candidate until its
   * `heldUntil`, then one, the probe, and none while an attempt of it is in flight (on any
   * instance; two instances claiming in the same instant may each take one). The probe that
   * delivers ends the hold (recordAttempts), and the backlog flows again.
   *
   * The candidates are each endpoint's oldest due messages (`perOwner` of them, or with more
   * endpoints due than the claim takes, its share of twice the claim), the endpoints with pending
   * messages found by a loose scan of a partial index (one probe each): the claim's cost grows with
   * the endpoints behind, not with the backlog (every due message ranked took 356 ms a claim at
   * 300,000 of them over 1,000 endpoints; this, 11 ms). Rows another instance is claiming are
   * skipped; the claim pushes their due time `leaseMs` ahead (the lease). It returns what sending them takes, endpoint
   * included, so a delivery needs no further read. The ranking (a window function) runs below the
   * level that locks, as FOR UPDATE allows none beside it.
   */
  async claimDue(limit: number, leaseMs: number, perOwner: number, running: ReadonlyMap<string, number> = new Map()): Promise<DueMessage[]> {
    // What an endpoint `o` offers the claim: its backlog while it is not held (a disabled one's
    // messages fail without an attempt, so it is never held); a probe once its hold is over and no
    // attempt of it is in flight (on any instance).
    const flowing = Prisma.sql`(o."heldUntil" IS NULL OR o."disabledAt" IS NOT NULL)`;
    const holdOver = Prisma.sql`(o."heldUntil" <= now() AND o."disabledAt" IS NULL)`;
    const probing = Prisma.sql`(${holdOver} AND NOT EXISTS (SELECT 1 FROM "WebhookMessage" f WHERE f."webhookId" = o."id" AND f."claimedUntil" > now()))`;
    const due = Prisma.sql`x."webhookId" = e.id AND x."dueAt" IS NOT NULL AND x."dueAt" <= now()`;
    return this.prisma.background<DueMessage>(Prisma.sql`
      WITH RECURSIVE endpoints AS (
        (SELECT "webhookId" AS id FROM "WebhookMessage" WHERE "dueAt" IS NOT NULL ORDER BY "webhookId" LIMIT 1)
        UNION ALL
        SELECT (SELECT p."webhookId" FROM "WebhookMessage" p WHERE p."dueAt" IS NOT NULL AND p."webhookId" > e.id ORDER BY p."webhookId" LIMIT 1)
        FROM endpoints e WHERE e.id IS NOT NULL),
      -- Each endpoint's share of the candidates: perOwner while the endpoints that offer any are no
      -- more than the claim (so a claim is short only when the work is); with more, the claim fills
      -- from one or a few of each (twice the claim over them), and a short claim would not sweep
      -- again at once. Held endpoints, which offer nothing, do not count (one whose probe is in
      -- flight does: asking would cost the claim more than the slightly smaller share).
      share AS (
        SELECT CASE WHEN count(*) <= ${limit}::int THEN ${perOwner}::int
                    ELSE least(${perOwner}::int, ceil(${limit * 2}::float8 / count(*)))::int END AS n
        FROM endpoints e JOIN "Webhook" o ON o."id" = e.id
        WHERE EXISTS (SELECT 1 FROM "WebhookMessage" x WHERE ${due}) AND (${flowing} OR ${holdOver})),
      ranked AS (
        SELECT r."id", r."dueAt", r.n + COALESCE(busy.n, 0) AS load
        FROM (SELECT d."id", d."dueAt", o."playerId", row_number() OVER (PARTITION BY o."playerId" ORDER BY d.probe DESC, d."dueAt") AS n
              FROM endpoints e JOIN "Webhook" o ON o."id" = e.id
              CROSS JOIN LATERAL (
                (SELECT x."id", x."dueAt", false AS probe FROM "WebhookMessage" x
                 WHERE ${flowing} AND ${due}
                 ORDER BY x."dueAt" LIMIT (SELECT n FROM share))
                UNION ALL
                -- The probe: a message not yet tried (the newest: a redelivery, say), else the
                -- newest due; first in its owner's rank, so its owner's other backlogs cannot keep it out.
                (SELECT p."id", p."dueAt", true AS probe FROM (
                   (SELECT x."id", x."dueAt" FROM "WebhookMessage" x WHERE ${probing} AND ${due} AND x."attempt" = 0 ORDER BY x."dueAt" DESC LIMIT 1)
                   UNION ALL
                   (SELECT x."id", x."dueAt" FROM "WebhookMessage" x WHERE ${probing} AND ${due} ORDER BY x."dueAt" DESC LIMIT 1)) p
                 LIMIT 1)) d) r
        LEFT JOIN unnest(${[...running.keys()]}::uuid[], ${[...running.values()]}::int[]) AS busy(owner, n) ON busy.owner = r."playerId"
        WHERE r.n <= ${perOwner}::int - COALESCE(busy.n, 0)
        ORDER BY load, r."dueAt" LIMIT ${limit * 2}::int)
      UPDATE "WebhookMessage" m SET "dueAt" = now() + make_interval(secs => ${leaseMs / 1000}::float8),
        "claimedUntil" = now() + make_interval(secs => ${leaseMs / 1000}::float8)
      FROM (SELECT c."id" FROM "WebhookMessage" c JOIN ranked ON ranked."id" = c."id"
            WHERE c."dueAt" <= now()
            ORDER BY ranked.load, c."dueAt" LIMIT ${limit}::int FOR UPDATE OF c SKIP LOCKED) due, "Webhook" w
      WHERE m."id" = due."id" AND w."id" = m."webhookId"
      RETURNING m."id", m."msgId", m."body", m."status", m."attempt", w."id" AS "webhookId", w."playerId"::text AS "ownerId", w."url", w."secret",
                w."previousSecret", w."rotatedAt", w."disabledAt", w."failingSince", m."claimedUntil"`);
  }

  async dueMessage(id: string): Promise<DueMessage | null> {
    const rows = await this.prisma.background<DueMessage>(Prisma.sql`
      SELECT m."id", m."msgId", m."body", m."status", m."attempt", w."id" AS "webhookId", w."playerId"::text AS "ownerId", w."url", w."secret", w."previousSecret",
             w."rotatedAt", w."disabledAt", w."failingSince", m."claimedUntil"
      FROM "WebhookMessage" m JOIN "Webhook" w ON w."id" = m."webhookId"
      WHERE m."id" = ${id}::uuid`);
    return rows[0] ?? null;
  }

  /**
   * Attempts' outcomes in one statement: each attempt logged, its message settled or scheduled
   * again, and each endpoint's failure streak, hold and disabled state updated from its outcomes,
   * computed on the endpoint's row as the update finds it (another instance's outcomes included):
   * a delivery ends the streak and the hold; failures after the statement's last delivery extend
   * the streak, and hold the endpoint (retry-policy.ts, HOLD_AFTER_FAILURES) for
   * clamp(now − failingSince, hold.minMs, hold.maxMs), or a Retry-After when longer, never
   * shortening a hold already set. An endpoint that was and stays healthy is not written.
   *
   * An outcome counts only while its message is still under the claim it was made under (its
   * `claimedUntil`) and pending: an instance that stalled past its lease (a paused VM, a lost
   * database) records late, after another instance claimed the message again, or delivered it, or
   * it was redelivered. That attempt is logged (the receiver saw it), but it neither settles nor
   * reschedules the message, nor counts toward its endpoint's streak: a late failure would turn a
   * delivered message back to pending, sent once more, or hold a healthy endpoint. A message
   * deleted while its attempt was in flight (its endpoint deleted, or pruned) is skipped: attempts
   * are logged only for the messages found (and locked, as the update locks its own), so it is no
   * foreign-key error that would fail the other attempts of the batch and leave them leased, to be
   * sent again.
   */
  async recordAttempts(outcomes: readonly RecordedAttempt[], hold: { minMs: number; maxMs: number }): Promise<void> {
    const col = <T>(f: (o: RecordedAttempt) => T) => outcomes.map(f);
    // The endpoint's streak and first failure once these outcomes count (its row as updated).
    const streak = Prisma.sql`CASE WHEN e.ok THEN 0 WHEN e.any_ok THEN e.failures ELSE w."failureStreak" + e.failures END`;
    const failingSince = Prisma.sql`CASE WHEN e.ok THEN NULL WHEN e.any_ok THEN e.first_failure ELSE COALESCE(w."failingSince", e.first_failure) END`;
    const holdSecs = Prisma.sql`GREATEST(LEAST(GREATEST(extract(epoch FROM now() - ${failingSince}) * 1000, ${hold.minMs}::float8), ${hold.maxMs}::float8), e.asked_ms) / 1000`;
    // A hold a delivery of this statement ended is no hold to extend.
    const heldBefore = Prisma.sql`CASE WHEN e.any_ok THEN NULL ELSE w."heldUntil" END`;
    await this.prisma.background(Prisma.sql`
      WITH x AS (
        SELECT * FROM unnest(
          ${col((o) => o.messageId)}::uuid[], ${col((o) => o.webhookId)}::uuid[], ${col((o) => o.attempt.at)}::timestamptz[],
          ${col((o) => o.attempt.statusCode)}::int[], ${col((o) => o.attempt.error)}::text[], ${col((o) => o.attempt.durationMs)}::int[],
          ${col((o) => o.status)}::text[], ${col((o) => o.dueInMs)}::float8[], ${col((o) => o.succeeded)}::boolean[],
          ${col((o) => o.askedMs)}::float8[], ${col((o) => o.disable)}::text[], ${col((o) => o.claimedUntil)}::timestamptz[]
        ) AS x(message, webhook, at, code, error, duration, status, due_ms, ok, asked_ms, disable, claim)),
      found AS (SELECT m."id" FROM "WebhookMessage" m WHERE m."id" IN (SELECT message FROM x) FOR KEY SHARE),
      messages AS (
        UPDATE "WebhookMessage" m SET "status" = x.status, "attempt" = m."attempt" + 1, "claimedUntil" = NULL,
          "dueAt" = CASE WHEN x.due_ms IS NULL THEN NULL ELSE now() + make_interval(secs => x.due_ms / 1000) END
        FROM x WHERE m."id" = x.message AND m."status" = 'PENDING' AND m."claimedUntil" IS NOT DISTINCT FROM x.claim
        RETURNING m."id", x.claim),
      logged AS (
        INSERT INTO "WebhookAttempt" ("id", "messageId", "at", "statusCode", "error", "durationMs")
        SELECT gen_random_uuid(), x.message, x.at, x.code, x.error, x.duration FROM x
        -- (a row the update changed is not locked again by the same statement: it is in messages, not in found)
        WHERE x.message IN (SELECT "id" FROM found UNION SELECT "id" FROM messages)),
      -- The outcomes that count (their message was still under their claim).
      -- (by message and claim: a batch may hold a stale outcome beside the current one of the same message)
      counted AS (SELECT x.* FROM x JOIN messages ON messages."id" = x.message AND messages.claim IS NOT DISTINCT FROM x.claim),
      -- Per endpoint: its latest outcome, whether any delivered, and the failures after the last delivery.
      last_delivery AS (SELECT webhook, max(at) FILTER (WHERE ok) AS at FROM counted GROUP BY webhook),
      endpoints AS (
        SELECT x.webhook, (array_agg(x.ok ORDER BY x.at DESC))[1] AS ok, l.at IS NOT NULL AS any_ok,
               count(*) FILTER (WHERE NOT x.ok AND x.at > COALESCE(l.at, '-infinity')) AS failures,
               min(x.at) FILTER (WHERE NOT x.ok AND x.at > COALESCE(l.at, '-infinity')) AS first_failure,
               COALESCE(max(x.asked_ms) FILTER (WHERE NOT x.ok AND x.at > COALESCE(l.at, '-infinity')), 0) AS asked_ms,
               max(x.disable) AS disable
        FROM counted x JOIN last_delivery l USING (webhook) GROUP BY x.webhook, l.at)
      UPDATE "Webhook" w SET
        "failureStreak" = ${streak},
        "failingSince" = ${failingSince},
        "heldUntil" = CASE WHEN e.ok THEN NULL
                           WHEN ${streak} >= ${HOLD_AFTER_FAILURES}::int OR e.asked_ms > 0 OR ${heldBefore} IS NOT NULL
                             THEN GREATEST(${heldBefore}, now() + make_interval(secs => ${holdSecs}))
                           ELSE ${heldBefore} END,
        "disabledAt" = CASE WHEN e.disable IS NULL THEN w."disabledAt" ELSE COALESCE(w."disabledAt", now()) END,
        "disabledReason" = COALESCE(w."disabledReason", e.disable)
      FROM endpoints e
      WHERE w."id" = e.webhook AND (NOT e.ok OR w."failingSince" IS NOT NULL OR w."heldUntil" IS NOT NULL OR e.disable IS NOT NULL)`);
  }

  /** A message of a disabled endpoint is not sent: it fails without an attempt. */
  async settle(id: string, status: MessageStatus): Promise<void> {
    await this.prisma.background(
      Prisma.sql`UPDATE "WebhookMessage" SET "status" = ${status}, "dueAt" = NULL, "claimedUntil" = NULL WHERE "id" = ${id}::uuid`,
    );
  }

  /** Deletes up to `limit` messages (their attempts cascade) older than the retention; returns how many. */
  async prune(limit: number): Promise<number> {
    const rows = await this.prisma.background(Prisma.sql`
      DELETE FROM "WebhookMessage" WHERE "id" IN (
        SELECT "id" FROM "WebhookMessage" WHERE "createdAt" < now() - make_interval(days => ${RETENTION_DAYS}::int) ORDER BY "createdAt" LIMIT ${limit}::int
        FOR UPDATE SKIP LOCKED)
      RETURNING "id"`);
    return rows.length;
  }
}
