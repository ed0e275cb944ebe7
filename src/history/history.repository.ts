import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { LoadedMatch, MatchStatusValue } from '../matches/loaded-match.js';
import { loadedMatch, MATCH_COLUMNS, type MatchRow } from '../matches/match-row.js';

export interface MatchFilter {
  playerId?: string | null;
  status?: MatchStatusValue | null;
  from?: Date | null;
  to?: Date | null;
  /** show private matches too (the viewer's own list); otherwise they are never listed */
  includePrivate?: boolean;
}

type Key = { createdAt: Date; id: string };

/** createdAt columns are `timestamp(3)` holding UTC wall time (Prisma's convention). */
const utc = (d: Date) => Prisma.sql`(${d.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;

/**
 * The read side of matches: lists for history pages. One statement a page: the page's keys, their
 * matches (MATCH_COLUMNS, as every read), and the count; a page with no row still gives the count.
 */
@Injectable()
export class HistoryRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Newest first; `after` is the (createdAt, id) of the last row of the previous page. One player's
   * matches go through the PlayerMatch index (playerId, [status,] createdAt desc, matchId desc): the
   * page and its count touch only that player's rows, however many matches exist.
   *
   * @param count whether to count every match that passes the filters (`total`, null when not): the
   *   count reads all of them, so it runs only for a client that selected totalCount
   */
  async page(f: MatchFilter, take: number, after: Key | null, count: boolean): Promise<{ rows: LoadedMatch[]; total: number | null }> {
    const [table, id] = f.playerId ? [Prisma.sql`"PlayerMatch"`, Prisma.sql`"matchId"`] : [Prisma.sql`"Match"`, Prisma.sql`"id"`];
    const filters = [
      ...(f.playerId ? [Prisma.sql`k."playerId" = ${f.playerId}::uuid`] : []),
      ...(f.status ? [Prisma.sql`k."status" = ${f.status}::"MatchStatus"`] : []),
      ...(f.from ? [Prisma.sql`k."createdAt" >= ${utc(f.from)}`] : []),
      ...(f.to ? [Prisma.sql`k."createdAt" < ${utc(f.to)}`] : []),
      // Private matches are listed only in their own players' lists, to those players.
      ...(f.includePrivate
        ? []
        : [f.playerId ? Prisma.sql`NOT EXISTS (SELECT 1 FROM "Match" x WHERE x."id" = k."matchId" AND x."private")` : Prisma.sql`NOT k."private"`]),
    ];
    const where = filters.length > 0 ? Prisma.sql`WHERE ${Prisma.join(filters, ' AND ')}` : Prisma.empty;
    const keyset = after
      ? Prisma.sql`${filters.length > 0 ? Prisma.sql`AND` : Prisma.sql`WHERE`} (k."createdAt", k.${id}) < (${utc(after.createdAt)}, ${after.id}::uuid)`
      : Prisma.empty;
    const rows = await this.prisma.poolQuery<MatchRow & { total: number | null }>(Prisma.sql`
      WITH total AS (SELECT CASE WHEN ${count}::boolean THEN (SELECT count(*)::int FROM ${table} k ${where}) END AS n),
      page AS (
        SELECT k.${id} AS "matchId", k."createdAt" FROM ${table} k
        ${where} ${keyset}
        ORDER BY k."createdAt" DESC, k.${id} DESC
        LIMIT ${take}::int)
      SELECT t.n AS "total", ${MATCH_COLUMNS}
      FROM total t
      LEFT JOIN page ON true
      LEFT JOIN "Match" m ON m."id" = page."matchId"
      ORDER BY page."createdAt" DESC, page."matchId" DESC`);
    const total = count ? (rows[0]?.total ?? 0) : null;
    return { rows: rows.filter((r) => r.id !== null).map(loadedMatch), total };
  }
}
