import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { LoadedMatch } from './loaded-match.js';
import { loadedMatch, MATCH_COLUMNS, type MatchRow } from './match-row.js';

/** createdAt columns are `timestamp(3)` holding UTC wall time (Prisma's convention). */
const utc = (d: Date) => Prisma.sql`(${d.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;

/** Public WAITING matches with a free seat: the condition openMatches lists (index Match_private_status_createdAt_id_idx). */
const OPEN = Prisma.sql`m."private" = false AND m."status" = 'WAITING'
  AND EXISTS (SELECT 1 FROM "Seat" s WHERE s."matchId" = m."id" AND s."playerId" IS NULL AND NOT s."isBot")`;

/** Finding opponents: invite codes, the open list, and the expiry of WAITING matches nobody joins. */
@Injectable()
export class MatchmakingRepository {
  constructor(private readonly prisma: PrismaService) {}

  async idByInviteCode(code: string): Promise<string | null> {
    const rows = await this.prisma.poolQuery<{ id: string }>(Prisma.sql`SELECT "id" FROM "Match" WHERE "inviteCode" = ${code}`);
    return rows[0]?.id ?? null;
  }

  /**
   * Claims up to `limit` WAITING matches past their time to live, oldest first, skipping rows
   * another instance holds; the claim pushes `expiresAt` `leaseMs` ahead (the lease). Each key is
   * `id@version`: the expiry applies only if nothing happened to the match since (decideExpiry).
   */
  async claimExpired(limit: number, leaseMs: number): Promise<string[]> {
    const rows = await this.prisma.background<{ id: string; version: number }>(Prisma.sql`
      UPDATE "Match" m SET "expiresAt" = now() + make_interval(secs => ${leaseMs / 1000}::float8)
      FROM (SELECT "id" FROM "Match" WHERE "expiresAt" <= now() ORDER BY "expiresAt" LIMIT ${limit}::int FOR UPDATE SKIP LOCKED) due
      WHERE m."id" = due."id"
      RETURNING m."id", m."version"`);
    return rows.map((r) => `${r.id}@${r.version}`);
  }

  /** Open matches oldest first, after the (createdAt, id) key of the previous page's last. */
  async openPage(take: number, after: { createdAt: Date; id: string } | null): Promise<LoadedMatch[]> {
    const keyset = after ? Prisma.sql`AND (m."createdAt", m."id") > (${utc(after.createdAt)}, ${after.id}::uuid)` : Prisma.empty;
    const rows = await this.prisma.poolQuery<MatchRow>(Prisma.sql`
      SELECT ${MATCH_COLUMNS}
      FROM "Match" m
      WHERE ${OPEN} ${keyset}
      ORDER BY m."createdAt", m."id"
      LIMIT ${take}::int`);
    return rows.map(loadedMatch);
  }

  /** How many open matches there are: every one of them is read. */
  async openCount(): Promise<number> {
    const count = await this.prisma.poolQuery<{ n: number }>(Prisma.sql`SELECT count(*)::int AS "n" FROM "Match" m WHERE ${OPEN}`);
    return count[0]?.n ?? 0;
  }
}
