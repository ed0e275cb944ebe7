import type { MatchmakingRecord, LoadedMatch } from './loaded-match.js';

/* Rules R24 for a rematch: the next game's leader is the previous game's winning scorer. */

/**
 * R24: the seat that made the finished match's winning score, and who sat there (null: a bot,
 * which keeps its seat in the rematch). Null when no score won it: a resignation ends a match
 * with no winning score, and the rematch's round 1 is led by lot (R5).
 */
export function winningScorer(finished: LoadedMatch): MatchmakingRecord['rematchLeader'] {
  const seat = finished.state?.winningSeat ?? null;
  if (seat === null) return null;
  return { seat, playerId: finished.seats[seat]?.playerId ?? null };
}

/**
 * The seat that leads round 1 of a rematch once `players` (by seat) sit in it: the seat of the
 * previous winning scorer if they sit in it (or their bot seat); null otherwise, and for a match
 * that is no rematch (round 1 by lot).
 */
export function rematchLeaderSeat(r: LoadedMatch, players: readonly (string | null)[]): number | null {
  const leader = r.matchmaking.rematchLeader;
  if (!leader) return null;
  if (leader.playerId === null) return r.seats[leader.seat]?.isBot ? leader.seat : null;
  const at = players.indexOf(leader.playerId);
  return at >= 0 ? at : null;
}
