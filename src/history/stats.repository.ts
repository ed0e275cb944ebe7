import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import type { Prisma } from '../generated/prisma/client.js';

/** A player's stored totals (the row of PlayerStats), as plain data. */
export interface StatsRow {
  playerId: string;
  playerName: string;
  matchesPlayed: number;
  matchesWon: number;
  roundsPlayed: number;
  pointsScored: number;
  roundsWonByDomino: number;
  roundsWonByBlock: number;
  biggestPlay: number;
}

/** The leaderboard's keyset: (wins desc, played asc, id asc). */
export interface LeaderKey {
  won: number;
  played: number;
  playerId: string;
}

const select = {
  playerId: true,
  matchesPlayed: true,
  matchesWon: true,
  roundsPlayed: true,
  pointsScored: true,
  roundsWonByDomino: true,
  roundsWonByBlock: true,
  biggestPlay: true,
  player: { select: { name: true } },
} as const;

type Row = Prisma.PlayerStatsGetPayload<{ select: typeof select }>;
const toRow = ({ player, ...r }: Row): StatsRow => ({ ...r, playerName: player.name });

/** Reads of the stats the StatsWriter keeps: one row per player, an index for the leaderboard. */
@Injectable()
export class StatsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async ofPlayer(playerId: string): Promise<StatsRow | null> {
    const r = await this.prisma.playerStats.findUnique({ where: { playerId }, select });
    return r ? toRow(r) : null;
  }

  /** Rows strictly after `k` in leaderboard order. */
  private after(k: LeaderKey): Prisma.PlayerStatsWhereInput {
    return {
      OR: [
        { matchesWon: { lt: k.won } },
        { matchesWon: k.won, matchesPlayed: { gt: k.played } },
        { matchesWon: k.won, matchesPlayed: k.played, playerId: { gt: k.playerId } },
      ],
    };
  }

  /** A page of the leaderboard, how many rows come before it (for ranks), and the total. */
  async leaderboard(take: number, after: LeaderKey | null): Promise<{ rows: StatsRow[]; before: number; total: number }> {
    const onBoard: Prisma.PlayerStatsWhereInput = { matchesPlayed: { gt: 0 } };
    const where = after ? { AND: [onBoard, this.after(after)] } : onBoard;
    const [rows, total, rest] = await Promise.all([
      this.prisma.playerStats.findMany({ where, orderBy: [{ matchesWon: 'desc' }, { matchesPlayed: 'asc' }, { playerId: 'asc' }], take, select }),
      this.prisma.playerStats.count({ where: onBoard }),
      after ? this.prisma.playerStats.count({ where }) : Promise.resolve(null),
    ]);
    return { rows: rows.map(toRow), total, before: rest === null ? 0 : total - rest };
  }
}
