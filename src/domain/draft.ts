/**
 * The scratchpad of one apply(): the state being built, with owned copies of whatever changes,
 * and constructors that write every field out (no object spread) so that all states share one
 * hidden class each, which keeps apply() monomorphic and fast.
 */
import type { DomainEvent, End, MatchState, MoveRecord, RoundState, Tile } from './types.js';

/** The mutable scratchpad of one apply(): owned copies only. */
export interface Draft {
  readonly base: MatchState;
  round: RoundState;
  readonly moves: MoveRecord[]; // owned copy of round.moves, appended to
  scores: number[]; // owned copy once changed
  lastSeq: number;
  readonly events: DomainEvent[];
  finalState: MatchState | null; // set when the match ends
}

export function draft(state: MatchState): Draft {
  return {
    base: state,
    round: state.round,
    moves: state.round.moves.slice(),
    scores: state.scores as number[],
    lastSeq: state.lastSeq,
    events: [],
    finalState: null,
  };
}

/**
 * A round with some fields replaced. Written out field by field rather than with object spread:
 * every RoundState then has one hidden class, which keeps apply() monomorphic and fast.
 */
export function withRound(
  r: RoundState,
  c: {
    hands?: RoundState['hands'];
    boneyard?: RoundState['boneyard'];
    board?: RoundState['board'];
    turn?: number;
    mustPlay?: Tile | null;
    passesInRow?: number;
    status?: RoundState['status'];
    result?: RoundState['result'];
    moves?: RoundState['moves'];
  },
): RoundState {
  return {
    number: r.number,
    starter: r.starter,
    hands: c.hands ?? r.hands,
    boneyard: c.boneyard ?? r.boneyard,
    board: c.board ?? r.board,
    turn: c.turn ?? r.turn,
    mustPlay: c.mustPlay !== undefined ? c.mustPlay : r.mustPlay,
    passesInRow: c.passesInRow ?? r.passesInRow,
    status: c.status ?? r.status,
    result: c.result !== undefined ? c.result : r.result,
    moves: c.moves ?? r.moves,
  };
}

export function matchState(base: MatchState, d: Draft, finished: { winner: number; winningSeat: number | null } | null): MatchState {
  return {
    config: base.config,
    teamOfSeat: base.teamOfSeat,
    teams: base.teams,
    scores: d.scores,
    status: finished === null ? base.status : 'FINISHED',
    winner: finished === null ? base.winner : finished.winner,
    winningSeat: finished === null ? base.winningSeat : finished.winningSeat,
    lastSeq: d.lastSeq,
    round: d.round,
  };
}

/** Appends a move to the draft's move log under the next match-wide seq. */
export function logMove(
  d: Draft,
  seat: number,
  type: MoveRecord['type'],
  tile: Tile | null,
  end: End | null,
  points: number,
  count: number | null,
): MoveRecord {
  d.lastSeq += 1;
  const move: MoveRecord = { seq: d.lastSeq, round: d.round.number, seat, type, tile, end, points, count };
  d.moves.push(move);
  return move;
}
