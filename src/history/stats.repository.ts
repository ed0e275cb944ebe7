import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { StatsDelta } from '../matches/stats/stats-delta.js';

/** A player's stored totals (the row of PlayerStats): the same counters a commit adds as a delta. */
export interface StatsRow extends StatsDelta {
  playerName: string;
}

/** The leaderboard's keyset: (wins desc, played asc, id asc). */
export interface LeaderKey {
  won: number;
  played: number;
  playerId: string;
}

const COLUMNS = Prisma.sql`s."playerId", p."name" AS "playerName", s."matchesPlayed", s."matchesWon", s."roundsPlayed", s."pointsScored",
  s."roundsWonByDomino", s."roundsWonByBlock", s."biggestPlay"`;

/** Reads of the stats the StatsWriter keeps: one row per player, an index for the leaderboard. */
@Injectable()
export class StatsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The stored totals of each of these players (null: none yet), in one statement. */
  async ofPlayers(playerIds: readonly string[]): Promise<(StatsRow | null)[]> {
    const rows = await this.prisma.$queryRaw<StatsRow[]>`
      SELECT ${COLUMNS} FROM "PlayerStats" s JOIN "Player" p ON p."id" = s."playerId" WHERE s."playerId" = ANY(${[...playerIds]}::uuid[])`;
    const byId = new Map(rows.map((r) => [r.playerId, r]));
    return playerIds.map((id) => byId.get(id) ?? null);
  }

  /**
   * A page of the leaderboard, how many entries precede it (for ranks) and the total, in one
   * statement. The page is an index range scan on (matchesWon desc, matchesPlayed, playerId).
   */
  async leaderboard(take: number, after: LeaderKey | null): Promise<{ rows: StatsRow[]; before: number; total: number }> {
    // Strictly after k in (wins desc, played asc, id asc); "before" is its complement.
    const past = after
      ? Prisma.sql`(s."matchesWon" < ${after.won} OR (s."matchesWon" = ${after.won} AND (s."matchesPlayed" > ${after.played}
          OR (s."matchesPlayed" = ${after.played} AND s."playerId" > ${after.playerId}::uuid))))`
      : Prisma.sql`true`;
    const rows = await this.prisma.$queryRaw<(StatsRow & { total: bigint | number; before: bigint | number })[]>`
      WITH counts AS (
        SELECT count(*) AS total, count(*) FILTER (WHERE NOT ${past}) AS before FROM "PlayerStats" s WHERE s."matchesPlayed" > 0),
      page AS (
        SELECT ${COLUMNS} FROM "PlayerStats" s JOIN "Player" p ON p."id" = s."playerId"
        WHERE s."matchesPlayed" > 0 AND ${past}
        ORDER BY s."matchesWon" DESC, s."matchesPlayed" ASC, s."playerId" ASC
        LIMIT ${take})
      SELECT c.total, c.before, page.* FROM counts c LEFT JOIN page ON true
      ORDER BY page."matchesWon" DESC, page."matchesPlayed" ASC, page."playerId" ASC`;
    const total = Number(rows[0]?.total ?? 0);
    const before = Number(rows[0]?.before ?? 0);
    return { rows: rows.filter((r) => r.playerId !== null).map(({ total: _t, before: _b, ...r }) => r), total, before };
  }
}
