import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import type { End, RoundResult, Rules } from '../domain/index.js';
import type { MatchStatusValue } from '../matches/match-record.js';
import type { RecordSource } from './record-format.js';

/** Reads what a match record is made of: four indexed reads by match id, no snapshots. */
@Injectable()
export class RecordRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The match's status alone when it is not FINISHED; its full source when it is; null if none. */
  async load(matchId: string): Promise<{ status: MatchStatusValue; source: RecordSource | null } | null> {
    const m = await this.prisma.match.findUnique({
      where: { id: matchId },
      select: {
        id: true, status: true, createdAt: true, finishedAt: true, seatCount: true, partnerships: true, rules: true, winnerTeam: true,
        seats: { orderBy: { index: 'asc' }, select: { index: true, team: true, isBot: true, botStrategy: true, playerId: true, player: { select: { name: true } } } },
        teams: { orderBy: { index: 'asc' }, select: { score: true } },
      },
    });
    if (!m) return null;
    if (m.status !== 'FINISHED' || m.winnerTeam === null) return { status: m.status, source: null };
    const [rounds, moves] = await Promise.all([
      this.prisma.round.findMany({ where: { matchId }, orderBy: { number: 'asc' }, select: { number: true, starter: true, status: true, result: true } }),
      this.prisma.move.findMany({
        where: { matchId },
        orderBy: { seq: 'asc' },
        select: { seq: true, round: true, seat: true, type: true, tileHigh: true, tileLow: true, end: true, points: true, count: true },
      }),
    ]);
    return {
      status: m.status,
      source: {
        id: m.id,
        createdAt: m.createdAt,
        finishedAt: m.finishedAt,
        seatCount: m.seatCount,
        partnerships: m.partnerships,
        rules: m.rules as unknown as Rules,
        winnerTeam: m.winnerTeam,
        seats: m.seats.map(({ player, ...s }) => ({ ...s, playerName: player?.name ?? null })),
        scores: m.teams.map((t) => t.score),
        rounds: rounds.map((r) => ({ ...r, result: r.result as unknown as RoundResult | null })),
        moves: moves.map((mv) => ({
          seq: mv.seq,
          round: mv.round,
          seat: mv.seat,
          type: mv.type,
          tile: mv.tileHigh === null || mv.tileLow === null ? null : { high: mv.tileHigh, low: mv.tileLow },
          end: mv.end as End | null,
          points: mv.points,
          count: mv.count,
        })),
      },
    };
  }
}
