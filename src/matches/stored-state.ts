import type { End, MatchState, MoveRecord, RoundState } from '../domain/index.js';

/**
 * How `Match.state` is stored: the engine's MatchState without the current round's move log.
 * Every move of the log is also a `Move` row, written by the same commit statement, and the log
 * was most of the state's text late in a round (6.3 KB with it, 2.2 KB without, in one long
 * round): every command rewrote all of it, and PostgreSQL compressed it each time. A read puts
 * the log back from `Move` (MATCH_COLUMNS' `roundMoves`); a row written before this change may
 * still carry its log, and the `Move` rows win over it.
 */
export type StoredMatchState = Omit<MatchState, 'round'> & { readonly round: Omit<RoundState, 'moves'> & { readonly moves?: unknown } };

/** A `Move` row of the current round as MATCH_COLUMNS returns it: one compact JSON array per move. */
export type RoundMoveRow = [
  seq: number,
  seat: number,
  type: MoveRecord['type'],
  tileHigh: number | null,
  tileLow: number | null,
  end: End | null,
  points: number,
  count: number | null,
];

/** The text the commit statement writes to `Match.state`. */
export function storedStateJson(state: MatchState): string {
  // `undefined` drops the key: cheaper than a replacer, which JSON.stringify would call for every key.
  return JSON.stringify({ ...state, round: { ...state.round, moves: undefined } });
}

/** The engine's state from a stored one and its current round's `Move` rows (in `seq` order). */
export function withRoundMoves(stored: StoredMatchState | null, rows: readonly RoundMoveRow[] | null): MatchState | null {
  if (stored === null) return null;
  const round = stored.round.number;
  const moves = (rows ?? []).map(([seq, seat, type, high, low, end, points, count]): MoveRecord => ({
    seq,
    round,
    seat,
    type,
    tile: high === null || low === null ? null : { high, low },
    end,
    points,
    count,
  }));
  return { ...stored, round: { ...stored.round, moves } };
}
