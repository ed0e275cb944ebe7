import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { LoadedMatch, MatchStatusValue } from '../matches/loaded-match.js';
import { matchInclude, MATCHMAKING_COLUMN, toRecord } from '../matches/match-rows.js';

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

type RawMatch = Omit<LoadedMatch, 'seats' | 'createdAt'> & {
  createdAt: Date | string;
  seats: LoadedMatch['seats'] | null;
  total: bigint | number;
};

function createdRange(f: MatchFilter): Prisma.DateTimeFilter | undefined {
  if (!f.from && !f.to) return undefined;
  return { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: f.to } : {}) };
}

/** The read side of matches: lists for history pages. */
@Injectable()
export class HistoryRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Newest first; `after` is the (createdAt, id) of the last row of the previous page. */
  async page(f: MatchFilter, take: number, after: Key | null): Promise<{ rows: LoadedMatch[]; total: number }> {
    return f.playerId ? this.playerPage(f.playerId, f, take, after) : this.allPage(f, take, after);
  }

  /**
   * One player's matches through the PlayerMatch index (playerId, [status,] createdAt desc,
   * matchId desc): the page and its count touch only that player's rows, however many matches
   * exist. One statement: the page's keys, their matches and seats, and the count.
   */
  private async playerPage(playerId: string, f: MatchFilter, take: number, after: Key | null): Promise<{ rows: LoadedMatch[]; total: number }> {
    const filters = [
      Prisma.sql`pm."playerId" = ${playerId}::uuid`,
      ...(f.status ? [Prisma.sql`pm."status" = ${f.status}::"MatchStatus"`] : []),
      ...(f.from ? [Prisma.sql`pm."createdAt" >= ${utc(f.from)}`] : []),
      ...(f.to ? [Prisma.sql`pm."createdAt" < ${utc(f.to)}`] : []),
      ...(f.includePrivate ? [] : [Prisma.sql`NOT EXISTS (SELECT 1 FROM "Match" x WHERE x."id" = pm."matchId" AND x."private")`]),
    ];
    const where = Prisma.join(filters, ' AND ');
    const keyset = after ? Prisma.sql`AND (pm."createdAt", pm."matchId") < (${utc(after.createdAt)}, ${after.id}::uuid)` : Prisma.empty;
    const rows = await this.prisma.$queryRaw<RawMatch[]>`
      WITH total AS (SELECT count(*) AS n FROM "PlayerMatch" pm WHERE ${where}),
      page AS (
        SELECT pm."matchId", pm."createdAt" FROM "PlayerMatch" pm
        WHERE ${where} ${keyset}
        ORDER BY pm."createdAt" DESC, pm."matchId" DESC
        LIMIT ${take})
      SELECT t.n AS "total", m."id", m."status"::text AS "status", m."version", m."seatCount", m."partnerships", m."rules", m."chainSecret", m."dealCommitment", m."state",
             m."lastEventSeq", m."createdAt", m."winnerTeam", ${MATCHMAKING_COLUMN}, m."clock", m."clockState",
             (SELECT json_agg(json_build_object(
                       'index', s."index", 'playerId', s."playerId", 'playerName', p."name", 'team', s."team",
                       'isBot', s."isBot", 'botStrategy', s."botStrategy", 'clientSeed', s."clientSeed") ORDER BY s."index")
                FROM "Seat" s LEFT JOIN "Player" p ON p."id" = s."playerId"
               WHERE s."matchId" = m."id") AS "seats"
      FROM total t
      LEFT JOIN page ON true
      LEFT JOIN "Match" m ON m."id" = page."matchId"
      ORDER BY page."createdAt" DESC, page."matchId" DESC`;
    const total = Number(rows[0]?.total ?? 0);
    const records = rows
      .filter((r) => r.id !== null)
      .map(({ total: _t, ...r }) => ({ ...r, createdAt: new Date(r.createdAt), seats: r.seats ?? [] }));
    return { rows: records, total };
  }

  private async allPage(f: MatchFilter, take: number, after: Key | null): Promise<{ rows: LoadedMatch[]; total: number }> {
    const where: Prisma.MatchWhereInput = {
      private: false,
      ...(f.status ? { status: f.status } : {}),
      ...(createdRange(f) ? { createdAt: createdRange(f) } : {}),
    };
    const keyset: Prisma.MatchWhereInput = after
      ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
      : {};
    const [rows, total] = await Promise.all([
      this.prisma.match.findMany({ where: { AND: [where, keyset] }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take, include: matchInclude }),
      this.prisma.match.count({ where }),
    ]);
    return { rows: rows.map(toRecord), total };
  }
}
