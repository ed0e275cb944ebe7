import { Injectable } from '@nestjs/common';
import { Prisma } from '../../../generated/prisma/client.js';
import type { Commit } from '../loaded-match.js';
import { statsDeltas, type StatsDelta } from './stats-delta.js';

/**
 * The history's write side. It does not write by itself: it returns the data-modifying CTEs that
 * MatchesRepository.commit() puts into the command's single statement, each guarded by the
 * compare-and-set, so the history index and the stats can never disagree with the match they
 * describe: when the version check fails, none of them writes.
 */
@Injectable()
export class StatsWriter {
  /**
   * @param seats who sits in each seat once the commit holds (null: a bot or a free seat)
   * @param guard a condition that holds only when the commit's compare-and-set did
   */
  ctes(c: Commit, seats: readonly (string | null)[], guard: Prisma.Sql): Prisma.Sql[] {
    const out: Prisma.Sql[] = [];
    // Who sits where, and the match's status, change only with these; plain moves skip this.
    if ((c.seatChanges?.length ?? 0) > 0 || c.started || c.finished) out.push(...playerMatchCtes(c, seats, guard));
    const matchFinished = c.status === 'FINISHED' && c.finished === true && !c.unrated;
    if ((c.roundsFinished.length > 0 || matchFinished) && c.state) {
      const deltas = statsDeltas({
        seats,
        teams: c.state.teams,
        teamOfSeat: c.state.teamOfSeat,
        rounds: c.roundsFinished.map((r) => ({ moves: r.snapshot.moves, result: r.result })),
        matchFinished,
        winnerTeam: c.winnerTeam,
      });
      if (deltas.length > 0) out.push(statsUpsertCte(deltas, guard));
    }
    return out;
  }
}

/** The (player, match) rows mirror who sits in the match and the match's status. */
function playerMatchCtes(c: Commit, seats: readonly (string | null)[], guard: Prisma.Sql): Prisma.Sql[] {
  const seated = seats.flatMap((playerId, seat) => (playerId ? [{ playerId, seat }] : []));
  const players = seated.map((s) => s.playerId);
  return [
    // Rows of players no longer seated; `<> ALL('{}')` holds for every row when nobody is left.
    // (The list must hold no NULL: `x <> ALL` of a list with a NULL is never true.)
    Prisma.sql`player_matches_gone AS (
      DELETE FROM "PlayerMatch" pm
      WHERE pm."matchId" = ${c.matchId}::uuid AND pm."playerId" <> ALL(${players}::uuid[]) AND ${guard})`,
    Prisma.sql`player_matches AS (
      INSERT INTO "PlayerMatch" ("playerId", "matchId", "createdAt", "status", "seat")
      SELECT x.player, m."id", m."createdAt", ${c.status}::"MatchStatus", x.seat
      FROM unnest(${players}::uuid[], ${seated.map((s) => s.seat)}::int[]) AS x(player, seat)
      JOIN "Match" m ON m."id" = ${c.matchId}::uuid
      WHERE ${guard}
      ORDER BY x.player
      ON CONFLICT ("playerId", "matchId") DO UPDATE SET "status" = EXCLUDED."status", "seat" = EXCLUDED."seat")`,
  ];
}

/** One upsert for every player of the commit; rows come sorted by player id (lock order). */
function statsUpsertCte(deltas: readonly StatsDelta[], guard: Prisma.Sql): Prisma.Sql {
  const col = <K extends keyof StatsDelta>(k: K) => deltas.map((d) => d[k]);
  return Prisma.sql`player_stats AS (
    INSERT INTO "PlayerStats" AS p ("playerId", "matchesPlayed", "matchesWon", "roundsPlayed", "pointsScored", "roundsWonByDomino", "roundsWonByBlock", "biggestPlay", "updatedAt")
    SELECT d.*, now() FROM unnest(
      ${col('playerId')}::uuid[], ${col('matchesPlayed')}::int[], ${col('matchesWon')}::int[], ${col('roundsPlayed')}::int[],
      ${col('pointsScored')}::int[], ${col('roundsWonByDomino')}::int[], ${col('roundsWonByBlock')}::int[], ${col('biggestPlay')}::int[]
    ) AS d
    WHERE ${guard}
    ON CONFLICT ("playerId") DO UPDATE SET
      "matchesPlayed" = p."matchesPlayed" + EXCLUDED."matchesPlayed",
      "matchesWon" = p."matchesWon" + EXCLUDED."matchesWon",
      "roundsPlayed" = p."roundsPlayed" + EXCLUDED."roundsPlayed",
      "pointsScored" = p."pointsScored" + EXCLUDED."pointsScored",
      "roundsWonByDomino" = p."roundsWonByDomino" + EXCLUDED."roundsWonByDomino",
      "roundsWonByBlock" = p."roundsWonByBlock" + EXCLUDED."roundsWonByBlock",
      "biggestPlay" = GREATEST(p."biggestPlay", EXCLUDED."biggestPlay"),
      "updatedAt" = now())`;
}
