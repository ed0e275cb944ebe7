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

/** The read side of matches: lists for history pages. */
@Injectable()
export class HistoryRepository {
  constructor(private readonly prisma: PrismaService) {}

  private where(f: MatchFilter): Prisma.MatchWhereInput {
    return {
      ...(f.playerId ? { seats: { some: { playerId: f.playerId } } } : {}),
      ...(f.status ? { status: f.status } : {}),
      ...(f.from || f.to ? { createdAt: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: f.to } : {}) } } : {}),
    };
  }

  /** Newest first; `after` is the (createdAt, id) of the last row of the previous page. */
  async page(f: MatchFilter, take: number, after: { createdAt: Date; id: string } | null): Promise<{ rows: MatchRecord[]; total: number }> {
    const where = this.where(f);
    const keyset: Prisma.MatchWhereInput = after
      ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
      : {};
    const [rows, total] = await Promise.all([
      this.prisma.match.findMany({
        where: { AND: [where, keyset] },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take,
        include: matchInclude,
      }),
      this.prisma.match.count({ where }),
    ]);
    return { rows: rows.map(toRecord), total };
  }
}
