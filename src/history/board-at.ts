import { EMPTY_BOARD, countOf, normalizeTile, openEnds, placeTile, type BoardState, type End, type SpinnerMode, type Tile } from '../domain/index.js';

/** A move as a round lists it (tiles of others' live draws may be hidden: they never touch the board). */
export interface ReplayMove {
  seq: number;
  type: string;
  tile: Tile | null;
  end: string | null;
  count: number | null;
}

export interface BoardAt {
  openEnds: { end: End; pips: number }[];
  count: number;
  spinner: Tile | null;
}

/**
 * The two rules that shape a layout, read off the round itself when the caller does not pass them
 * (a Round object does not carry its match's rules):
 * - spinner: a round's final layout has a spinner exactly when the mode is FIRST_DOUBLE and a
 *   double was played; with no double played the mode changes nothing.
 * - spinnerEndsCount: only changes C while a spinner's UP/DOWN are open and empty; the first PLAY
 *   whose stored count tells the two variants apart decides it.
 */
export function inferLayoutRules(moves: readonly ReplayMove[], finalSpinner: Tile | null): { spinner: SpinnerMode; spinnerEndsCount: boolean } {
  const spinner: SpinnerMode = finalSpinner ? 'FIRST_DOUBLE' : 'NONE';
  let board: BoardState = EMPTY_BOARD;
  for (const m of moves) {
    if (m.type !== 'PLAY' || !m.tile) continue;
    board = placeTile(board, normalizeTile(m.tile), m.end as End | null, spinner);
    const off = countOf(board, { spinnerEndsCount: false });
    const on = countOf(board, { spinnerEndsCount: true });
    if (off !== on) return { spinner, spinnerEndsCount: m.count === on };
  }
  return { spinner, spinnerEndsCount: false };
}

/**
 * The layout right after the move numbered `seq`, replayed with the engine's placeTile from the
 * round's PLAY moves. Returns null when `seq` is not one of the round's moves.
 */
export function boardAt(moves: readonly ReplayMove[], seq: number, rules: { spinner: SpinnerMode; spinnerEndsCount: boolean }): BoardAt | null {
  if (!moves.some((m) => m.seq === seq)) return null;
  let board: BoardState = EMPTY_BOARD;
  for (const m of moves) {
    if (m.seq > seq) break;
    if (m.type !== 'PLAY' || !m.tile) continue;
    board = placeTile(board, normalizeTile(m.tile), m.end as End | null, rules.spinner);
  }
  return {
    openEnds: openEnds(board).map((e) => ({ end: e.end, pips: e.pips })),
    count: countOf(board, rules),
    spinner: board.spinner ? { high: board.spinner.tile.high, low: board.spinner.tile.low } : null,
  };
}
