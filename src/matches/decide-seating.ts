import { ApiError } from '../common/api-error.js';
import { defaultSeatSeed, newMatch, withRound1Leader } from '../domain/index.js';
import { bareCommit, planFromEngine } from './commit-plan.js';
import type { Decision } from './command-runner.js';
import { dealSourceOf } from './fair-deal-secrets.js';
import type { Commit, LoadedMatch, NewEvent } from './loaded-match.js';
import { seatOf } from './match-view.js';
import { rematchLeaderSeat } from './r24-leader.js';

/*
 * What the seating commands decide, as pure functions of a fresh read of the match: the checks
 * in their order, and the commit. The joiner's seed and limits come in as arguments, so every
 * edge case is unit-tested without a database (decide-seating.spec.ts).
 */

/** Who is asking, with the client seed they bring (null: the seat's default one) and the WAITING cap. */
export interface Joiner {
  playerId: string;
  clientSeed: string | null;
  maxWaiting: number;
}

/**
 * Join: not ended (whoever asks: nothing about the request can fix that) → not already seated →
 * a private match only by its invite code → the seat asked for is one of the match's human
 * seats → WAITING (a started match is full) → that seat free, or without one asked for, the
 * first free human seat.
 */
export function decideJoin(r: LoadedMatch, joiner: Joiner, by: 'id' | 'invite' = 'id', seat: number | null = null): Decision {
  if (r.status === 'FINISHED' || r.status === 'ABANDONED') throw new ApiError('MATCH_NOT_IN_PROGRESS', `the match is ${r.status}`);
  if (seatOf(r, joiner.playerId) !== null) throw new ApiError('BAD_USER_INPUT', 'you already sit in this match');
  if (r.matchmaking.private && by === 'id')
    throw new ApiError('FORBIDDEN', 'this match is private: join it with its invite code (joinMatchByInvite)');
  if (seat !== null && !(Number.isInteger(seat) && seat >= 0 && seat < r.seatCount))
    throw new ApiError('BAD_USER_INPUT', `seat must be 0 to ${r.seatCount - 1} in this match`);
  if (seat !== null && r.seats[seat].isBot) throw new ApiError('BAD_USER_INPUT', `seat ${seat} is a bot's`);
  if (r.status !== 'WAITING') throw new ApiError('MATCH_FULL', 'every seat is taken');
  const free = r.seats.filter((s) => !s.isBot && s.playerId === null).map((s) => s.index);
  if (free.length === 0) throw new ApiError('MATCH_FULL', 'every seat is taken');
  if (seat !== null && !free.includes(seat))
    throw new ApiError('MATCH_FULL', `seat ${seat} is taken: the free seats are ${free.join(', ')}`, { freeSeats: free });
  return { commit: seatPlayer(r, joiner, seat ?? free[0]) };
}

/**
 * Seats a player with their client seed. When that fills the table, round 1 is dealt in the same
 * commit; otherwise the match stays WAITING and the commit carries the player's WAITING cap.
 */
export function seatPlayer(r: LoadedMatch, joiner: Joiner, index: number): Commit {
  const joined: NewEvent = { type: 'PLAYER_JOINED', moveSeq: null, seat: index };
  // No seed given: the seat keeps the one it shows, fixed since the commitment (defaultSeatSeed).
  const clientSeed = joiner.clientSeed ?? r.seats[index].clientSeed;
  const seatChanges = [{ index, playerId: joiner.playerId, clientSeed }];
  const full = r.seats.every((s) => s.isBot || s.playerId !== null || s.index === index);
  if (!full) {
    const waitingCap = { playerId: joiner.playerId, max: joiner.maxWaiting };
    return bareCommit(r, { status: 'WAITING', seatChanges, events: [joined], waitingCap, restartsExpiry: true });
  }
  const clientSeeds = r.seats.map((s) => (s.index === index ? clientSeed : s.clientSeed));
  const players = r.seats.map((s) => (s.index === index ? joiner.playerId : s.playerId));
  const base = { seats: r.seatCount, partnerships: r.partnerships, rules: r.rules, deal: dealSourceOf(r, clientSeeds) };
  // A rematch: round 1 is led by the seat of the previous match's winning scorer, if seated (R24).
  const config = withRound1Leader(base, rematchLeaderSeat(r, players));
  const { state, events } = newMatch(config);
  const commit = planFromEngine(r, state, events, { leadEvents: [joined, { type: 'MATCH_STARTED', moveSeq: null }], started: true });
  return { ...commit, seatChanges };
}

/** A new client seed: seated → WAITING (no deal has used the seed yet). */
export function decideClientSeed(r: LoadedMatch, playerId: string, clientSeed: string): Decision {
  const seat = seatOf(r, playerId);
  if (seat === null) throw new ApiError('FORBIDDEN', 'you do not sit in this match');
  if (r.status !== 'WAITING') throw new ApiError('MATCH_NOT_IN_PROGRESS', notWaiting(r, 'given a client seed'));
  return {
    commit: bareCommit(r, {
      status: 'WAITING',
      seatChanges: [{ index: seat, playerId, clientSeed }],
      events: [{ type: 'CLIENT_SEED_SET', moveSeq: null, seat }],
    }),
  };
}

/**
 * Leave: seated → WAITING (a started match is resigned, not left). The last one out abandons the
 * match. The seat gets its default seed back: whoever sits there next brings their own or keeps it.
 */
export function decideLeave(r: LoadedMatch, playerId: string): Decision {
  const seat = seatOf(r, playerId);
  if (seat === null) throw new ApiError('FORBIDDEN', 'you do not sit in this match');
  if (r.status !== 'WAITING') throw new ApiError('MATCH_NOT_IN_PROGRESS', notWaiting(r, 'left', ': resign instead'));
  const remaining = r.seats.filter((s) => s.playerId !== null && s.index !== seat).length;
  return {
    commit: bareCommit(r, {
      status: remaining === 0 ? 'ABANDONED' : 'WAITING',
      seatChanges: [{ index: seat, playerId: null, clientSeed: defaultSeatSeed(r.dealCommitment, seat) }],
      events: [{ type: 'PLAYER_LEFT', moveSeq: null, seat }],
      finished: remaining === 0,
    }),
  };
}

/** Why a seated player's leave or seed comes too late: resigning is the way out of a match that is on, and of nothing else. */
function notWaiting(r: LoadedMatch, what: string, onceStarted = ''): string {
  const only = `only a match still WAITING can be ${what}`;
  return r.status === 'IN_PROGRESS' ? `${only}; this one started${onceStarted}` : `${only}; this one is ${r.status}`;
}
