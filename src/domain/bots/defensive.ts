/**
 * The defensive bot: greedy with a one-move lookahead. A play is worth its points now, minus the
 * points the next seat can expect to answer with (over the tiles it may hold, given what its
 * passes and draws proved), plus half of the best score the bot's remaining hand could make on the
 * new layout (keeping counting tiles back for later); late in a round, heavy tiles go first, since
 * pips left in hand feed the opponents' bonus. Deterministic: no seed.
 */
import { countOf, endValue, ENDS, placeTile } from '../board.js';
import { playScore } from '../scoring.js';
import { ALL_TILES } from '../tiles.js';
import type { Action, BoardState, MatchView, Rules } from '../types.js';
import { boardOfView, botSeat } from './common.js';
import { inferKnowledge } from './inference.js';
import { bitOf, FULL_SET, maskOf, popcount, WITH_PIP } from './masks.js';

/** The best score any tile of `tiles` makes on `board` (one ply, no draw). */
function bestReplies(board: BoardState, tiles: number, rules: Rules): number[] {
  const best: number[] = [];
  for (let i = 0, m = tiles; m !== 0; i++, m >>>= 1) {
    if ((m & 1) === 0) continue;
    let top = 0;
    for (const e of ENDS) {
      const v = endValue(board, e);
      if (v < 0 || (WITH_PIP[v] & (1 << i)) === 0) continue;
      top = Math.max(top, playScore(countOf(placeTile(board, ALL_TILES[i], e, rules.spinner), rules), rules.scoring));
    }
    if (top > 0) best.push(top);
  }
  return best;
}

/** Expected best reply when each candidate tile is held with probability q, independently. */
function expectedBest(scores: number[], q: number): number {
  scores.sort((a, b) => b - a);
  let none = 1;
  let expected = 0;
  for (const s of scores) {
    expected += s * q * none;
    none *= 1 - q;
  }
  return expected;
}

export function defensiveAction(view: MatchView): Action {
  const seat = botSeat(view);
  const moves = view.legalMoves;
  if (moves.length === 0) {
    if (view.canDraw) return { type: 'DRAW', seat };
    throw new Error(`seat ${seat} has no move to make`);
  }
  const rules = view.rules;
  const board = boardOfView(view);
  const knowledge = inferKnowledge(view);
  const hand = maskOf(view.hand ?? []);
  const next = (seat + 1) % view.seats;
  const nextIsOpponent = view.teamOfSeat[next] !== view.teamOfSeat[seat];
  // The tiles the next seat may hold: those its least constrained hidden tile may be.
  const slots = knowledge.slots[next];
  const loosest = slots.length === 0 ? FULL_SET : slots.reduce((a, m) => (popcount(m) < popcount(a) ? m : a));
  const theirs = knowledge.unseen & ~loosest;
  const q = Math.min(1, view.handCounts[next] / Math.max(1, popcount(knowledge.unseen)));
  const late = view.handCounts.some((n, s) => s !== seat && n <= 2) || (view.hand ?? []).length <= 3;
  let best = moves[0];
  let bestValue = Number.NEGATIVE_INFINITY;
  for (const m of moves) {
    const after = placeTile(board, m.tile, m.end, rules.spinner);
    const points = playScore(countOf(after, rules), rules.scoring);
    const threat = nextIsOpponent ? expectedBest(bestReplies(after, theirs, rules), q) : 0;
    const kept = bestReplies(after, hand & ~bitOf(m.tile), rules);
    const followUp = kept.length > 0 ? Math.max(...kept) : 0;
    const pips = m.tile.high + m.tile.low;
    const value = points - threat + 0.5 * followUp + (late ? 0.5 : 0.05) * pips;
    if (value > bestValue) {
      bestValue = value;
      best = m;
    }
  }
  return { type: 'PLAY', seat, tile: best.tile, end: best.end };
}
