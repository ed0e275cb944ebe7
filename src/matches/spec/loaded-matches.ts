import { newMatch, resolveRules, type MatchState } from '../../domain/index.js';
import { testDeal } from '../../domain/spec/kit.js';
import type { LoadedMatch, LoadedSeat } from '../loaded-match.js';

/** Fixtures for the application layer's pure tests: match records as the repository loads them. */

export const MATCH_ID = '00000000-0000-4000-8000-000000000001';

/** A public match that is no rematch. */
export const NO_MATCHMAKING = { private: false, inviteCode: 'CODE', rematchOfId: null, rematchId: null, rematchLeader: null } as const;

export function seat(index: number, playerId: string | null, extra: Partial<LoadedSeat> = {}): LoadedSeat {
  return { index, playerId, playerName: playerId, team: index, isBot: false, botStrategy: null, clientSeed: `seed-${index}`, ...extra };
}

/** A WAITING match with these seats (a player id, null for a free seat, or 'bot'). */
export function waitingMatch(seats: readonly (string | null)[], extra: Partial<LoadedMatch> = {}): LoadedMatch {
  return {
    id: MATCH_ID,
    status: 'WAITING',
    version: 1,
    seatCount: seats.length,
    partnerships: false,
    rules: resolveRules({}),
    chainSecret: 'ab'.repeat(32),
    dealCommitment: '',
    state: null,
    lastEventSeq: 1,
    createdAt: new Date(0),
    winnerTeam: null,
    seats: seats.map((p, i) => (p === 'bot' ? seat(i, null, { isBot: true, botStrategy: 'greedy' }) : seat(i, p))),
    matchmaking: { ...NO_MATCHMAKING },
    ...extra,
  };
}

/** An IN_PROGRESS record of this engine state, seats held by `players` in order. */
export function loadedMatchOf(state: MatchState, version: number, lastEventSeq: number, players: readonly string[] = []): LoadedMatch {
  return {
    id: MATCH_ID,
    status: 'IN_PROGRESS',
    version,
    seatCount: state.config.seats,
    partnerships: state.config.partnerships,
    rules: state.config.rules,
    chainSecret: state.config.deal.anchor.secret,
    dealCommitment: '',
    state,
    lastEventSeq,
    createdAt: new Date(0),
    winnerTeam: null,
    seats: players.map((p, i) => ({ ...seat(i, p), team: state.teamOfSeat[i] })),
    matchmaking: { ...NO_MATCHMAKING },
  };
}

/** A freshly dealt match of `players.length` seats (or partnerships of four). */
export function startedMatch(players: readonly string[], options: { partnerships?: boolean; seed?: number } = {}): LoadedMatch {
  const { state } = newMatch({
    seats: players.length,
    partnerships: options.partnerships ?? false,
    rules: resolveRules({}),
    deal: testDeal(options.seed ?? 42, players.length),
  });
  return loadedMatchOf(state, 3, 4, players);
}
