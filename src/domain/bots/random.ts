/** The random bot: a uniform legal play, else a draw. Sees only its own view. */
import { makeRng, randInt } from '../rng.js';
import type { Action, MatchView } from '../types.js';
import { botSeat } from './common.js';

export function randomAction(view: MatchView, seed: number): Action {
  const seat = botSeat(view);
  const moves = view.legalMoves;
  if (moves.length > 0) {
    const m = moves.length === 1 ? moves[0] : moves[randInt(makeRng(seed), 0, moves.length - 1)];
    return { type: 'PLAY', seat, tile: m.tile, end: m.end };
  }
  if (view.canDraw) return { type: 'DRAW', seat };
  throw new Error(`seat ${seat} has no move to make`);
}
