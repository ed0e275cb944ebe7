import { Injectable } from '@nestjs/common';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Commit } from '../matches/match-record.js';
import { statsDeltas, type StatsDelta } from './stats-delta.js';

/**
 * The history's write side, called by MatchesRepository.commit() inside its transaction, so the
 * history index and the stats can never disagree with the match they describe: if the commit
 * rolls back (a version conflict), so do they.
 */
@Injectable()
export class StatsWriter {
  async apply(tx: Prisma.TransactionClient, c: Commit): Promise<void> {
    // Who sits where, and the match's status, change only with these; plain moves skip this.
    if ((c.seatChanges?.length ?? 0) > 0 || c.started || c.finished) await this.syncPlayerMatches(tx, c);
    const matchFinished = c.status === 'FINISHED' && c.finished === true;
    if (c.roundsFinished.length === 0 && !matchFinished) return;
    if (!c.state) return;
    const seats = await tx.seat.findMany({ where: { matchId: c.matchId }, orderBy: { index: 'asc' }, select: { index: true, playerId: true } });
    const deltas = statsDeltas({
      seats: seats.map((s) => s.playerId),
      teams: c.state.teams,
      teamOfSeat: c.state.teamOfSeat,
      rounds: c.roundsFinished.map((r) => ({ moves: r.snapshot.moves, result: r.result })),
      matchFinished,
      winnerTeam: c.winnerTeam,
    });
    await upsertStats(tx, deltas);
  }

  /** The (player, match) rows mirror the Seat rows and the match's status. */
  private async syncPlayerMatches(tx: Prisma.TransactionClient, c: Commit): Promise<void> {
    await tx.$executeRaw`
      DELETE FROM "PlayerMatch" pm
      WHERE pm."matchId" = ${c.matchId}::uuid
        AND NOT EXISTS (SELECT 1 FROM "Seat" s WHERE s."matchId" = pm."matchId" AND s."playerId" = pm."playerId")`;
    await tx.$executeRaw`
      INSERT INTO "PlayerMatch" ("playerId", "matchId", "createdAt", "status", "seat")
      SELECT s."playerId", s."matchId", m."createdAt", ${c.status}::"MatchStatus", s."index"
      FROM "Seat" s JOIN "Match" m ON m."id" = s."matchId"
      WHERE s."matchId" = ${c.matchId}::uuid AND s."playerId" IS NOT NULL
      ORDER BY s."playerId"
      ON CONFLICT ("playerId", "matchId") DO UPDATE SET "status" = EXCLUDED."status", "seat" = EXCLUDED."seat"`;
  }
}

/** One statement for every player of the commit; rows come sorted by player id (lock order). */
export async function upsertStats(tx: Prisma.TransactionClient, deltas: readonly StatsDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  const col = <K extends keyof StatsDelta>(k: K) => deltas.map((d) => d[k]);
  await tx.$executeRaw`
    INSERT INTO "PlayerStats" AS p ("playerId", "matchesPlayed", "matchesWon", "roundsPlayed", "pointsScored", "roundsWonByDomino", "roundsWonByBlock", "biggestPlay", "updatedAt")
    SELECT d.*, now() FROM unnest(
      ${col('playerId')}::uuid[], ${col('matchesPlayed')}::int[], ${col('matchesWon')}::int[], ${col('roundsPlayed')}::int[],
      ${col('pointsScored')}::int[], ${col('roundsWonByDomino')}::int[], ${col('roundsWonByBlock')}::int[], ${col('biggestPlay')}::int[]
    ) AS d
    ON CONFLICT ("playerId") DO UPDATE SET
      "matchesPlayed" = p."matchesPlayed" + EXCLUDED."matchesPlayed",
      "matchesWon" = p."matchesWon" + EXCLUDED."matchesWon",
      "roundsPlayed" = p."roundsPlayed" + EXCLUDED."roundsPlayed",
      "pointsScored" = p."pointsScored" + EXCLUDED."pointsScored",
      "roundsWonByDomino" = p."roundsWonByDomino" + EXCLUDED."roundsWonByDomino",
      "roundsWonByBlock" = p."roundsWonByBlock" + EXCLUDED."roundsWonByBlock",
      "biggestPlay" = GREATEST(p."biggestPlay", EXCLUDED."biggestPlay"),
      "updatedAt" = now()`;
}
