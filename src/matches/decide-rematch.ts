import { ApiError } from '../common/api-error.js';
import { bareCommit } from './commit-plan.js';
import type { Decision } from './command-runner.js';
import { seatPlayer, type Joiner } from './decide-seating.js';
import type { Commit, MatchmakingRecord, LoadedMatch } from './loaded-match.js';
import { seatOf } from './match-view.js';
import { winningScorer } from './r24-leader.js';

/*
 * What rematches and expiry decide, as pure functions of a fresh read (decide-rematch.spec.ts).
 * The first player to ask for a rematch of a FINISHED match creates it (a copy of its settings,
 * see match-settings.ts); every later one joins that same match.
 */

/** What a rematch request comes to: create the rematch, or join the one that exists. */
export type RematchPlan =
  { create: { seat: number; links: Pick<MatchmakingRecord, 'rematchOfId' | 'rematchLeader'> } } | { join: string; seat: number };

/** Rematch: a player of the match → FINISHED → join its rematch, or create it. */
export function decideRematch(finished: LoadedMatch, playerId: string): RematchPlan {
  const seat = seatOf(finished, playerId);
  if (seat === null) throw new ApiError('FORBIDDEN', 'only a player of this match can ask for its rematch');
  if (finished.status !== 'FINISHED') throw new ApiError('MATCH_NOT_FINISHED', `only a FINISHED match has a rematch; this one is ${finished.status}`);
  if (finished.matchmaking.rematchId !== null) return { join: finished.matchmaking.rematchId, seat };
  return { create: { seat, links: { rematchOfId: finished.id, rematchLeader: winningScorer(finished) } } };
}

/**
 * A player of the finished match joins its rematch: an abandoned rematch (left by all, or expired)
 * is not in progress, whoever asks; already there → the match as it is (a retry); the rematch
 * still WAITING → their old seat if it is free, else the first free human seat of their old team,
 * else the first free human seat; one that started
 * without them (playing or since finished) is full.
 */
export function decideRematchSeat(rematch: LoadedMatch, joiner: Joiner, oldSeat: number): Decision {
  if (rematch.status === 'ABANDONED') throw new ApiError('MATCH_NOT_IN_PROGRESS', 'the rematch was abandoned: nobody joined it in time, or all left');
  if (seatOf(rematch, joiner.playerId) !== null) return { unchanged: true };
  if (rematch.status !== 'WAITING')
    throw new ApiError('MATCH_FULL', `the rematch started without you: every seat is taken (it is ${rematch.status})`);
  const free = rematch.seats.filter((s) => !s.isBot && s.playerId === null);
  // Someone else took the old seat: a partner stays with their partner if a seat of their team is free.
  const oldTeam = rematch.seats[oldSeat]?.team;
  const seat = free.find((s) => s.index === oldSeat) ?? free.find((s) => s.team === oldTeam) ?? free[0];
  if (!seat) throw new ApiError('MATCH_FULL', 'every seat of the rematch is taken');
  return { commit: seatPlayer(rematch, joiner, seat.index) };
}

/** The finished match's feed says where its rematch is (Match.rematch): REMATCH_OFFERED, by the offering seat. */
export function rematchOffered(finished: LoadedMatch, seat: number): Commit {
  return bareCommit(finished, { status: finished.status, events: [{ type: 'REMATCH_OFFERED', moveSeq: null, seat }] });
}

/**
 * Expiry of a WAITING match nobody joined in time, as claimed at `claimedVersion`: any command
 * since (a join, a leave, the start) makes the claim stale and nothing happens; a join restarts
 * the time to live. Otherwise the match is ABANDONED, and its players are told as when the last one leaves.
 */
export function decideExpiry(r: LoadedMatch, claimedVersion: number): Decision {
  if (r.status !== 'WAITING' || r.version !== claimedVersion) return { unchanged: true };
  return { commit: bareCommit(r, { status: 'ABANDONED', events: [{ type: 'MATCH_EXPIRED', moveSeq: null }], finished: true }) };
}
