/**
 * The greedy bot: the play that scores most now. Among equal scores (zero included) it prefers a
 * play after which it still holds a tile matching one of the layout's open ends (so it can answer
 * whatever the opponents leave), then sheds the heaviest tile (fewer pips to lose at the end),
 * then the first in legal-move order. With no play it draws.
 */
import { countOf, endValue, ENDS, placeTile } from '../board.js';
import { playScore } from '../scoring.js';
import { sameTile } from '../tiles.js';
import type { Action, MatchView } from '../types.js';
import { boardOfView, botSeat } from './common.js';

export function greedyAction(view: MatchView): Action {
  const seat = botSeat(view);
  const moves = view.legalMoves;
  if (moves.length === 0) {
    if (view.canDraw) return { type: 'DRAW', seat };
    throw new Error(`seat ${seat} has no move to make`);
  }
  const board = boardOfView(view);
  const hand = view.hand ?? [];
  let best = moves[0];
  let bestKey: [number, number, number] = [-1, -1, -1];
  for (const m of moves) {
    const next = placeTile(board, m.tile, m.end, view.rules.spinner);
    const points = playScore(countOf(next, view.rules), view.rules.scoring);
    const ends = ENDS.map((e) => endValue(next, e)).filter((v) => v >= 0);
    const answers = hand.some((t) => !sameTile(t, m.tile) && ends.some((v) => t.high === v || t.low === v)) ? 1 : 0;
    const key: [number, number, number] = [points, answers, m.tile.high + m.tile.low];
    if (key[0] > bestKey[0] || (key[0] === bestKey[0] && (key[1] > bestKey[1] || (key[1] === bestKey[1] && key[2] > bestKey[2])))) {
      best = m;
      bestKey = key;
    }
  }
  return { type: 'PLAY', seat, tile: best.tile, end: best.end };
}
