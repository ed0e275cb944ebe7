import type { DomainEvent, MatchState, MoveRecord } from '../domain/index.js';
import type { Commit, FinishedRound, LoadedMatch, MatchStatusValue, NewEvent } from './loaded-match.js';

/**
 * Turns what the engine did (its events and new state) into the rows one command writes.
 * Pure, so the mapping from engine events to stored events is tested without a database.
 */
export function planFromEngine(
  loaded: LoadedMatch,
  next: MatchState,
  events: readonly DomainEvent[],
  extra: { clientMoveId?: string | null; playerId?: string | null; leadEvents?: NewEvent[]; started?: boolean } = {},
): Commit {
  const moves: MoveRecord[] = [];
  const stored: NewEvent[] = [...(extra.leadEvents ?? [])];
  const roundsFinished: FinishedRound[] = [];
  const roundsStarted: Commit['roundsStarted'] = [];
  let scoresChanged = false;
  for (const e of events) {
    switch (e.type) {
      case 'TILE_PLAYED':
      case 'TILE_DRAWN':
      case 'TURN_PASSED':
        moves.push(e.move);
        stored.push({ type: e.type, moveSeq: e.move.seq });
        if (e.move.points > 0) scoresChanged = true;
        break;
      case 'ROUND_ENDED':
        roundsFinished.push({ number: e.round, snapshot: e.finalRound, result: e.result });
        stored.push({ type: e.type, moveSeq: null });
        if (e.result.awarded.some((p) => p > 0)) scoresChanged = true;
        break;
      case 'ROUND_STARTED':
        roundsStarted.push({ number: e.round, starter: e.starter });
        stored.push({ type: e.type, moveSeq: null });
        break;
      case 'MATCH_FINISHED':
        stored.push({ type: e.type, moveSeq: null });
        break;
    }
  }
  const finished = next.status === 'FINISHED';
  const status: MatchStatusValue = finished ? 'FINISHED' : 'IN_PROGRESS';
  return {
    matchId: loaded.id,
    expectedVersion: loaded.version,
    lastEventSeq: loaded.lastEventSeq,
    status,
    state: next,
    winnerTeam: next.winner,
    started: extra.started,
    finished,
    moves,
    clientMoveId: extra.clientMoveId,
    playerId: extra.playerId,
    events: stored,
    scores: scoresChanged || extra.started ? next.scores : undefined,
    roundsFinished,
    roundsStarted,
  };
}

/** A commit that changes no game state: seating, a client seed, a resignation's ending. */
export function bareCommit(r: LoadedMatch, c: Partial<Commit> & Pick<Commit, 'status' | 'events'>): Commit {
  return {
    matchId: r.id,
    expectedVersion: r.version,
    lastEventSeq: r.lastEventSeq,
    state: r.state,
    winnerTeam: r.winnerTeam,
    moves: [],
    roundsFinished: [],
    roundsStarted: [],
    ...c,
  };
}
