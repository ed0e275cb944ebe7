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
