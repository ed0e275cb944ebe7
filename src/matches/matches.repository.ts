import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import { StatsWriter } from '../history/stats.writer.js';
import type { MatchState, MoveRecord, Rules, RoundResult, RoundState } from '../domain/index.js';
import { Prisma } from '../generated/prisma/client.js';
import { VersionConflict, type Commit, type CommitResult, type EventWithMove, type FinishedRoundRecord, type MatchRecord, type StoredEvent } from './match-record.js';

export const matchInclude = { seats: { orderBy: { index: 'asc' }, include: { player: { select: { name: true } } } } } as const;
export type MatchWithSeats = Prisma.MatchGetPayload<{ include: typeof matchInclude }>;

export function toRecord(m: MatchWithSeats): MatchRecord {
  return {
    id: m.id,
    status: m.status,
    version: m.version,
    seatCount: m.seatCount,
    partnerships: m.partnerships,
    rules: m.rules as unknown as Rules,
    seed: Number(m.seed),
    state: m.state as unknown as MatchState | null,
    lastEventSeq: m.lastEventSeq,
    createdAt: m.createdAt,
    winnerTeam: m.winnerTeam,
    seats: m.seats.map((s) => ({
      index: s.index,
      playerId: s.playerId,
      playerName: s.player?.name ?? null,
      team: s.team,
      isBot: s.isBot,
      botStrategy: s.botStrategy,
    })),
  };
}

const json = (v: unknown) => v as Prisma.InputJsonValue;

/** The only place that talks to the database about matches. */
@Injectable()
export class MatchesRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly stats: StatsWriter,
  ) {}

  async find(id: string): Promise<MatchRecord | null> {
    const m = await this.prisma.match.findUnique({ where: { id }, include: matchInclude });
    return m ? toRecord(m) : null;
  }

  async create(input: {
    createdById: string;
    seatCount: number;
    partnerships: boolean;
    rules: Rules;
    seed: number;
    seats: { index: number; playerId: string | null; team: number; isBot: boolean; botStrategy: string | null }[];
    teams: number;
  }): Promise<MatchRecord> {
    const m = await this.prisma.match.create({
      data: {
        createdById: input.createdById,
        seatCount: input.seatCount,
        partnerships: input.partnerships,
        rules: json(input.rules),
        seed: BigInt(input.seed),
        seats: { create: input.seats },
        teams: { create: Array.from({ length: input.teams }, (_, index) => ({ index })) },
      },
      include: matchInclude,
    });
    return toRecord(m);
  }

  /** Has this player already sent a command with this idempotency key in this match? */
  async hasClientMove(matchId: string, playerId: string, clientMoveId: string): Promise<boolean> {
    const found = await this.prisma.move.findUnique({
      where: { matchId_playerId_clientMoveId: { matchId, playerId, clientMoveId } },
      select: { seq: true },
    });
    return found !== null;
  }

  /**
   * Writes one command atomically: the compare-and-set on `version` comes first, so a concurrent
   * command for the same match waits on the row lock and then finds the version changed.
   */
  async commit(c: Commit): Promise<CommitResult> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const firstEventSeq = await this.bumpVersion(tx, c);
        const events: StoredEvent[] = c.events.map((e, i) => ({ ...e, seq: firstEventSeq + i }));
        for (const s of c.seatChanges ?? []) {
          await tx.seat.update({ where: { matchId_index: { matchId: c.matchId, index: s.index } }, data: { playerId: s.playerId } });
        }
        if (c.moves.length > 0) {
          await tx.move.createMany({
            data: c.moves.map((m, i) => ({
              matchId: c.matchId,
              seq: m.seq,
              round: m.round,
              seat: m.seat,
              type: m.type,
              tileHigh: m.tile?.high ?? null,
              tileLow: m.tile?.low ?? null,
              end: m.end,
              points: m.points,
              count: m.count,
              clientMoveId: i === 0 ? (c.clientMoveId ?? null) : null,
              playerId: i === 0 ? (c.playerId ?? null) : null,
            })),
          });
        }
        if (events.length > 0) {
          await tx.matchEvent.createMany({ data: events.map((e) => ({ matchId: c.matchId, seq: e.seq, type: e.type, moveSeq: e.moveSeq })) });
        }
        if (c.scores) await this.writeScores(tx, c.matchId, c.scores);
        for (const r of c.roundsFinished) {
          await tx.round.update({
            where: { matchId_number: { matchId: c.matchId, number: r.number } },
            data: { status: 'FINISHED', snapshot: json(r.snapshot), result: json(r.result), endedAt: new Date() },
          });
        }
        if (c.roundsStarted.length > 0) {
          await tx.round.createMany({
            data: c.roundsStarted.map((r) => ({ matchId: c.matchId, number: r.number, seed: BigInt(r.seed), starter: r.starter })),
          });
        }
        // History index and player stats move with the commit, never apart from it.
        await this.stats.apply(tx, c);
        return { version: c.expectedVersion + 1, events };
      });
    } catch (e) {
      // Two retries of one command racing on the same idempotency key: the loser re-reads.
      if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002') throw new VersionConflict();
      throw e;
    }
  }

  /** Compare-and-set; returns the first event seq this command may use. */
  private async bumpVersion(tx: Prisma.TransactionClient, c: Commit): Promise<number> {
    const rows = await tx.$queryRaw<{ lastEventSeq: number }[]>`
      UPDATE "Match" SET
        "version" = "version" + 1,
        "status" = ${c.status}::"MatchStatus",
        "state" = ${c.state === null ? null : JSON.stringify(c.state)}::jsonb,
        "turn" = ${c.state && c.status === 'IN_PROGRESS' ? c.state.round.turn : null}::int,
        "winnerTeam" = ${c.winnerTeam}::int,
        "lastEventSeq" = "lastEventSeq" + ${c.events.length}::int,
        "startedAt" = CASE WHEN ${c.started ?? false} THEN now() ELSE "startedAt" END,
        "finishedAt" = CASE WHEN ${c.finished ?? false} THEN now() ELSE "finishedAt" END,
        "updatedAt" = now()
      WHERE "id" = ${c.matchId}::uuid AND "version" = ${c.expectedVersion}
      RETURNING "lastEventSeq"`;
    if (rows.length === 0) throw new VersionConflict();
    return rows[0].lastEventSeq - c.events.length + 1;
  }

  private async writeScores(tx: Prisma.TransactionClient, matchId: string, scores: readonly number[]): Promise<void> {
    await tx.$executeRaw`
      UPDATE "Team" t SET "score" = s.score
      FROM unnest(${[...scores]}::int[]) WITH ORDINALITY AS s(score, ord)
      WHERE t."matchId" = ${matchId}::uuid AND t."index" = s.ord - 1 AND t."score" <> s.score`;
  }

  async finishedRounds(matchId: string): Promise<FinishedRoundRecord[]> {
    const rows = await this.prisma.round.findMany({
      where: { matchId, status: 'FINISHED' },
      orderBy: { number: 'asc' },
      select: { number: true, snapshot: true, result: true },
    });
    return rows.map((r) => ({ number: r.number, snapshot: r.snapshot as unknown as RoundState, result: r.result as unknown as RoundResult }));
  }

  /** Stored events after `afterSeq`, in order, each with its move (unredacted: views redact). */
  async eventsAfter(matchId: string, afterSeq: number, limit = 500): Promise<EventWithMove[]> {
    const rows = await this.prisma.$queryRaw<
      { seq: number; type: string; moveSeq: number | null; round: number | null; seat: number | null; moveType: MoveRecord['type'] | null; tileHigh: number | null; tileLow: number | null; end: string | null; points: number | null; count: number | null }[]
    >`
      SELECT e.seq, e.type, m.seq AS "moveSeq", m.round, m.seat, m.type::text AS "moveType", m."tileHigh", m."tileLow", m."end", m.points, m.count
      FROM "MatchEvent" e
      LEFT JOIN "Move" m ON m."matchId" = e."matchId" AND m.seq = e."moveSeq"
      WHERE e."matchId" = ${matchId}::uuid AND e.seq > ${afterSeq}
      ORDER BY e.seq
      LIMIT ${limit}`;
    return rows.map((r) => ({
      seq: r.seq,
      type: r.type,
      move:
        r.moveSeq === null
          ? null
          : {
              seq: r.moveSeq,
              round: r.round!,
              seat: r.seat!,
              type: r.moveType!,
              tile: r.tileHigh === null ? null : { high: r.tileHigh, low: r.tileLow! },
              end: r.end as MoveRecord['end'],
              points: r.points!,
              count: r.count,
            },
    }));
  }

  /** Every match id a player sits in, with its status: for "my turns" and listings. */
  async matchIdsOfPlayer(playerId: string): Promise<string[]> {
    const rows = await this.prisma.seat.findMany({ where: { playerId }, select: { matchId: true } });
    return rows.map((r) => r.matchId);
  }
}
