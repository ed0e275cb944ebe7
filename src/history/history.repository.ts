import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { MatchRecord, MatchStatusValue } from '../matches/match-record.js';
import { matchInclude, toRecord } from '../matches/matches.repository.js';

export interface MatchFilter {
  playerId?: string | null;
  status?: MatchStatusValue | null;
  from?: Date | null;
  to?: Date | null;
}

type Key = { createdAt: Date; id: string };

function createdRange(f: MatchFilter): Prisma.DateTimeFilter | undefined {
  if (!f.from && !f.to) return undefined;
  return { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: f.to } : {}) };
}

/** The read side of matches: lists for history pages. */
@Injectable()
export class HistoryRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Newest first; `after` is the (createdAt, id) of the last row of the previous page. */
  async page(f: MatchFilter, take: number, after: Key | null): Promise<{ rows: MatchRecord[]; total: number }> {
    return f.playerId ? this.playerPage(f.playerId, f, take, after) : this.allPage(f, take, after);
  }

  /**
   * One player's matches through the PlayerMatch index (playerId, [status,] createdAt desc,
   * matchId desc): the page and its count touch only that player's rows, however many matches
   * exist; then the page's matches are read by primary key.
   */
  private async playerPage(playerId: string, f: MatchFilter, take: number, after: Key | null): Promise<{ rows: MatchRecord[]; total: number }> {
    const where: Prisma.PlayerMatchWhereInput = { playerId, ...(f.status ? { status: f.status } : {}), ...(createdRange(f) ? { createdAt: createdRange(f) } : {}) };
    const keyset: Prisma.PlayerMatchWhereInput = after
      ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, matchId: { lt: after.id } }] }
      : {};
    const [ids, total] = await Promise.all([
      this.prisma.playerMatch.findMany({ where: { AND: [where, keyset] }, orderBy: [{ createdAt: 'desc' }, { matchId: 'desc' }], take, select: { matchId: true } }),
      this.prisma.playerMatch.count({ where }),
    ]);
    if (ids.length === 0) return { rows: [], total };
    const found = await this.prisma.match.findMany({ where: { id: { in: ids.map((r) => r.matchId) } }, include: matchInclude });
    const byId = new Map(found.map((m) => [m.id, m]));
    const rows = ids.flatMap((r) => {
      const m = byId.get(r.matchId);
      return m ? [toRecord(m)] : [];
    });
    return { rows, total };
  }

  private async allPage(f: MatchFilter, take: number, after: Key | null): Promise<{ rows: MatchRecord[]; total: number }> {
    const where: Prisma.MatchWhereInput = { ...(f.status ? { status: f.status } : {}), ...(createdRange(f) ? { createdAt: createdRange(f) } : {}) };
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
