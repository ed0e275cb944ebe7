/**
 * What a seat's view proves about the tiles it cannot see (the inference a strong player makes).
 *
 * Each hidden tile a seat holds is a slot with a mask of tiles it cannot be. A seat that draws
 * (when drawing is compulsory) or passes holds nothing matching the open ends at that moment: every
 * slot it holds then gains those tiles, and so does a drawn tile it keeps (R15: a playable drawn
 * tile is played at once, so a kept one was unplayable). A tile drawn later starts unconstrained.
 * Masks only grow, so a seat's older slots are supersets of its newer ones; when a tile is played
 * the most constrained slot that allows it is removed, which never excludes the real hands.
 */
import { buildBoard, endValue, ENDS, placeTile } from '../board.js';
import type { BoardState, MatchView } from '../types.js';
import { botSeat } from './common.js';
import { bitOf, FULL_SET, maskOf, popcount, WITH_PIP } from './masks.js';

export interface Knowledge {
  readonly seat: number;
  /** Tiles the seat cannot see: the other hands and the boneyard. */
  readonly unseen: number;
  /** Per seat, the masks of tiles each of its hidden tiles cannot be (empty for the viewer). */
  readonly slots: readonly (readonly number[])[];
  readonly boneyardCount: number;
}

/** Tiles that would fit one of the layout's open ends (all tiles before the lead). */
export function playableMask(board: BoardState): number {
  if (board.lead === null) return FULL_SET;
  let m = 0;
  for (const e of ENDS) {
    const v = endValue(board, e);
    if (v >= 0) m |= WITH_PIP[v];
  }
  return m;
}

function removeSlotFor(slots: number[], bit: number): void {
  let best = -1;
  for (let i = 0; i < slots.length; i++) {
    if ((slots[i] & bit) === 0 && (best < 0 || popcount(slots[i]) > popcount(slots[best]))) best = i;
  }
  // No slot allows it only if the view is inconsistent; drop the loosest so counts stay right.
  if (best < 0) for (let i = 0; i < slots.length; i++) if (best < 0 || popcount(slots[i]) < popcount(slots[best])) best = i;
  if (best >= 0) slots.splice(best, 1);
}

export function inferKnowledge(view: MatchView): Knowledge {
  const seat = botSeat(view);
  const rules = view.rules;
  const slots: number[][] = view.handCounts.map((_, s) => (s === seat ? [] : new Array<number>(rules.handSize).fill(0)));
  const drawsProve = !rules.voluntaryDraw;
  let board: BoardState = buildBoard([], rules.spinner);
  let played = 0;
  let previous: { seat: number; type: string } | null = null;
  for (const m of view.round.moves) {
    const own = m.seat === seat;
    if (m.type === 'PLAY' && m.tile !== null) {
      const bit = bitOf(m.tile);
      played |= bit;
      if (!own) {
        const s = slots[m.seat];
        const justDrawn = drawsProve && previous !== null && previous.seat === m.seat && previous.type === 'DRAW';
        if (justDrawn && s.length > 0) s.pop();
        else removeSlotFor(s, bit);
      }
      board = placeTile(board, m.tile, m.end, rules.spinner);
    } else if (!own && (m.type === 'PASS' || (m.type === 'DRAW' && drawsProve))) {
      const cannot = playableMask(board);
      const s = slots[m.seat];
      for (let i = 0; i < s.length; i++) s[i] |= cannot;
    }
    if (m.type === 'DRAW' && !own) slots[m.seat].push(0);
    previous = m;
  }
  // Keep the slot counts to what the view shows (a hand-built position may start short).
  for (let s = 0; s < slots.length; s++) {
    if (s === seat) continue;
    const want = view.handCounts[s];
    while (slots[s].length > want) removeSlotFor(slots[s], 0);
    while (slots[s].length < want) slots[s].push(0);
  }
  const unseen = FULL_SET & ~maskOf(view.hand ?? []) & ~played;
  return { seat, unseen, slots, boneyardCount: view.round.boneyardCount };
}
