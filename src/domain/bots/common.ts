import { buildBoard } from '../board.js';
import type { BoardState, MatchView } from '../types.js';

export function botSeat(view: MatchView): number {
  if (typeof view.viewer !== 'number') throw new Error('a bot needs a seat view');
  return view.viewer;
}

/** The layout rebuilt from the view's move log (the view shows open ends, not the arms). */
export function boardOfView(view: MatchView): BoardState {
  const plays = view.round.moves.filter((m) => m.type === 'PLAY' && m.tile !== null);
  return buildBoard(
    plays.map((m) => ({ tile: m.tile!, end: m.end })),
    view.rules.spinner,
  );
}
