import { Injectable } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client.js';
import { PrismaService } from '../database/prisma.service.js';
import { MatchEndCause, type MatchEnding } from './models/match-ending.model.js';

/** How finished matches ended, read from their events (Match.ending). */
@Injectable()
export class MatchEndingsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * How each FINISHED match ended, by the event just before its MATCH_FINISHED: RESIGNED or
   * TIMED_OUT (with its seat) when a forfeit ended it, anything else when a side reached the
   * target. Null for a match not finished.
   */
  async endingsOf(matchIds: readonly string[]): Promise<(MatchEnding | null)[]> {
    // Per match, its (matchId, seq) index read backwards from the end: MATCH_FINISHED is among the
    // last events (only rematch offers come after it), not found by scanning a long match's log.
    const rows = await this.prisma.$queryRaw<{ matchId: string; cause: string | null; seat: number | null }[]>(Prisma.sql`
      SELECT f."matchId", c."type"::text AS "cause", c."seat"
        FROM unnest(${[...matchIds]}::uuid[]) AS ids("id")
        CROSS JOIN LATERAL (
          SELECT e."matchId", e."seq" FROM "MatchEvent" e
           WHERE e."matchId" = ids."id" AND e."type" = 'MATCH_FINISHED'
           ORDER BY e."seq" DESC LIMIT 1) f
        LEFT JOIN "MatchEvent" c ON c."matchId" = f."matchId" AND c."seq" = f."seq" - 1 AND c."type" IN ('RESIGNED', 'TIMED_OUT')`);
    const byMatch = new Map(rows.map((r) => [r.matchId, r]));
    return matchIds.map((id) => {
      const row = byMatch.get(id);
      if (!row) return null;
      if (row.cause === 'RESIGNED') return { cause: MatchEndCause.RESIGNED, seat: row.seat };
      if (row.cause === 'TIMED_OUT') return { cause: MatchEndCause.TIMED_OUT, seat: row.seat };
      return { cause: MatchEndCause.TARGET_REACHED, seat: null };
    });
  }
}
