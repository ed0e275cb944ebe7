/**
 * What the seat to move may do: legal plays (R8, R11, R14, R15, R6) and whether it may draw.
 * Written allocation-light: the auto-pass loop and the bench call these on every move.
 */
import { endValue } from './board.js';
import type { LegalMove, MatchState, RoundState, Rules, Tile } from './types.js';

function fitsAny(t: Tile, l: number, r: number, u: number, d: number): boolean {
  return (
    t.high === l ||
    t.low === l ||
    t.high === r ||
    t.low === r ||
    (u >= 0 && (t.high === u || t.low === u)) ||
    (d >= 0 && (t.high === d || t.low === d))
  );
}

function pushPlacements(out: LegalMove[], tile: Tile, l: number, r: number, u: number, d: number): void {
  if (tile.high === l || tile.low === l) out.push({ tile, end: 'LEFT' });
  if (tile.high === r || tile.low === r) out.push({ tile, end: 'RIGHT' });
  if (u >= 0 && (tile.high === u || tile.low === u)) out.push({ tile, end: 'UP' });
  if (d >= 0 && (tile.high === d || tile.low === d)) out.push({ tile, end: 'DOWN' });
}

/** True when `seat` holds a tile it could play now (ignores whose turn it is). */
export function hasPlay(round: RoundState, seat: number): boolean {
  const hand = round.hands[seat];
  const board = round.board;
  if (board.lead === null) return hand.length > 0;
  if (round.mustPlay !== null) return true;
  const l = endValue(board, 'LEFT');
  const r = endValue(board, 'RIGHT');
  const u = endValue(board, 'UP');
  const d = endValue(board, 'DOWN');
  for (let i = 0; i < hand.length; i++) if (fitsAny(hand[i], l, r, u, d)) return true;
  return false;
}

/** Legal moves of `seat` in a live round: by hand order (ALL_TILES order), then LEFT, RIGHT, UP, DOWN. */
export function roundLegalMoves(round: RoundState, seat: number): LegalMove[] {
  if (round.status !== 'IN_PROGRESS' || round.turn !== seat) return [];
  const out: LegalMove[] = [];
  if (round.board.lead === null) {
    if (round.mustPlay !== null) return [{ tile: round.mustPlay, end: null }];
    for (const tile of round.hands[seat]) out.push({ tile, end: null });
    return out;
  }
  const board = round.board;
  const l = endValue(board, 'LEFT');
  const r = endValue(board, 'RIGHT');
  const u = endValue(board, 'UP');
  const d = endValue(board, 'DOWN');
  if (round.mustPlay !== null) {
    pushPlacements(out, round.mustPlay, l, r, u, d);
    return out;
  }
  const hand = round.hands[seat];
  for (let i = 0; i < hand.length; i++) pushPlacements(out, hand[i], l, r, u, d);
  return out;
}

export function roundCanDraw(round: RoundState, seat: number, rules: Rules): boolean {
  return (
    round.status === 'IN_PROGRESS' &&
    round.turn === seat &&
    round.mustPlay === null &&
    round.boneyard.length > rules.reserve &&
    (rules.voluntaryDraw || !hasPlay(round, seat))
  );
}

export function legalMoves(state: MatchState, seat: number): LegalMove[] {
  if (state.status !== 'IN_PROGRESS') return [];
  return roundLegalMoves(state.round, seat);
}

export function canDraw(state: MatchState, seat: number): boolean {
  return state.status === 'IN_PROGRESS' && roundCanDraw(state.round, seat, state.config.rules);
}
