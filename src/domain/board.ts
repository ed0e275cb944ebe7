/**
 * The layout (R8–R12): placement, open ends and the open-end count C.
 *
 * Geometry, settled once: a non-double lead shows its high half on LEFT and its low half on RIGHT;
 * LEFT and RIGHT arms grow outward from the lead. Under FIRST_DOUBLE the first double played
 * (the lead or a tile on the LEFT/RIGHT arm) is the only spinner. Its two sides lie along the
 * line; UP and DOWN open only once both sides are occupied (R11). A spinner played into an arm
 * already has one side occupied (the tile it was played on); its other side is that arm's
 * continuation.
 */
import { normalizeTile } from './tiles.js';
import type { BoardState, End, OpenEnd, PlacedTile, Rules, SpinnerMode, Tile } from './types.js';

export const ENDS: readonly End[] = ['LEFT', 'RIGHT', 'UP', 'DOWN'];

export const EMPTY_BOARD: BoardState = Object.freeze({
  lead: null,
  arms: Object.freeze({ LEFT: [], RIGHT: [], UP: [], DOWN: [] }),
  spinner: null,
});

export function isEnd(e: unknown): e is End {
  return e === 'LEFT' || e === 'RIGHT' || e === 'UP' || e === 'DOWN';
}

/** An arm by name, through named property loads (a computed key is a slower keyed load in V8). */
function armOf(arms: BoardState['arms'], end: End): readonly PlacedTile[] {
  return end === 'LEFT' ? arms.LEFT : end === 'RIGHT' ? arms.RIGHT : end === 'UP' ? arms.UP : arms.DOWN;
}

/** How many of the spinner's two sides carry a tile (0 when there is no spinner). */
export function spinnerSidesOccupied(board: BoardState): number {
  const s = board.spinner;
  if (s === null) return 0;
  if (s.arm === 'LEAD') return (board.arms.LEFT.length > 0 ? 1 : 0) + (board.arms.RIGHT.length > 0 ? 1 : 0);
  // Played into an arm: the tile it was played on is one side; the arm's continuation the other.
  return (s.arm === 'LEFT' ? board.arms.LEFT : board.arms.RIGHT).length > s.index + 1 ? 2 : 1;
}

/** The pips an end offers, or -1 when that end is not open. Allocation-free: the hot path uses it. */
export function endValue(board: BoardState, end: End): number {
  const lead = board.lead;
  if (lead === null) return -1;
  if (end === 'LEFT') {
    const arm = board.arms.LEFT;
    return arm.length > 0 ? arm[arm.length - 1].outer : lead.high;
  }
  if (end === 'RIGHT') {
    const arm = board.arms.RIGHT;
    return arm.length > 0 ? arm[arm.length - 1].outer : lead.low;
  }
  const s = board.spinner;
  if (s === null || spinnerSidesOccupied(board) < 2) return -1;
  const arm = end === 'UP' ? board.arms.UP : board.arms.DOWN;
  return arm.length > 0 ? arm[arm.length - 1].outer : s.tile.high;
}

/** Every open end in the order LEFT, RIGHT, UP, DOWN (UP/DOWN only once open). */
export function openEnds(board: BoardState, _rules?: Rules): OpenEnd[] {
  const out: OpenEnd[] = [];
  for (const end of ENDS) {
    const pips = endValue(board, end);
    if (pips >= 0) out.push({ end, pips });
  }
  return out;
}

function armTail(arm: readonly PlacedTile[]): number {
  if (arm.length === 0) return 0;
  const last = arm[arm.length - 1];
  // A double at an arm's end shows its free side: 2n (R12c). A spinner there has only one side
  // occupied, so the same 2n applies (R12d).
  return last.tile.high === last.tile.low ? 2 * last.outer : last.outer;
}

/** C, the open-end sum (R12). */
export function countOf(board: BoardState, rules: Pick<Rules, 'spinnerEndsCount'>): number {
  const lead = board.lead;
  if (lead === null) return 0;
  const { LEFT, RIGHT, UP, DOWN } = board.arms;
  let c = 0;
  if (lead.high === lead.low) {
    // A lead double (spinner or not) counts 2n while fewer than two of its sides are occupied.
    if (LEFT.length === 0 || RIGHT.length === 0) c += 2 * lead.high;
  } else {
    if (LEFT.length === 0) c += lead.high;
    if (RIGHT.length === 0) c += lead.low;
  }
  c += armTail(LEFT) + armTail(RIGHT) + armTail(UP) + armTail(DOWN);
  const s = board.spinner;
  if (rules.spinnerEndsCount && s !== null && spinnerSidesOccupied(board) === 2) {
    // Variant (PS, OD): each still-empty spinner end keeps counting n.
    if (UP.length === 0) c += s.tile.high;
    if (DOWN.length === 0) c += s.tile.high;
  }
  return c;
}

/** What one open end adds to C: for saying the count in words (R12). */
export interface EndCount {
  end: End;
  pips: number;
  /** Its share of C; the shares of a layout's open ends add up to countOf. */
  counts: number;
  /** It lies on a double across the line, whose two halves count (R12c, the spinner's R12d). */
  double: boolean;
  /** The RIGHT end of a lone lead double: that double's share is the LEFT end's. */
  sameDoubleAsLeft: boolean;
}

/**
 * countOf, end by end. A lone lead double exposes two ends but counts 2n once: its share goes to
 * the LEFT end, the RIGHT end counting 0. The spinner's own UP and DOWN ends count 0 (n each
 * under spinnerEndsCount).
 */
export function endCounts(board: BoardState, rules: Pick<Rules, 'spinnerEndsCount'>): EndCount[] {
  const lead = board.lead;
  if (lead === null) return [];
  const leadDouble = lead.high === lead.low;
  const lone = board.arms.LEFT.length === 0 && board.arms.RIGHT.length === 0;
  return openEnds(board).map(({ end, pips }) => {
    const arm = board.arms[end];
    if (arm.length > 0) {
      const last = arm[arm.length - 1];
      const double = last.tile.high === last.tile.low;
      return { end, pips, counts: double ? 2 * last.outer : last.outer, double, sameDoubleAsLeft: false };
    }
    if (end === 'UP' || end === 'DOWN') return { end, pips, counts: rules.spinnerEndsCount ? pips : 0, double: false, sameDoubleAsLeft: false };
    if (!leadDouble) return { end, pips, counts: pips, double: false, sameDoubleAsLeft: false };
    const shared = lone && end === 'RIGHT';
    return { end, pips, counts: shared ? 0 : 2 * pips, double: true, sameDoubleAsLeft: shared };
  });
}

/** True when `tile` can be attached at `end` of this (non-empty) layout. */
export function fits(board: BoardState, tile: Tile, end: End): boolean {
  const v = endValue(board, end);
  return v >= 0 && (tile.high === v || tile.low === v);
}

/**
 * The layout after placing `tile` (already known to be legal). `end` is ignored for the lead.
 * Structural sharing: only the arm that grows is copied.
 */
export function placeTile(board: BoardState, tile: Tile, end: End | null, spinnerMode: SpinnerMode): BoardState {
  const double = tile.high === tile.low;
  if (board.lead === null) {
    return {
      lead: tile,
      arms: board.arms,
      spinner: double && spinnerMode === 'FIRST_DOUBLE' ? { arm: 'LEAD', index: 0, tile } : null,
    };
  }
  if (end === null) throw new Error('an end is required once the lead is down');
  const v = endValue(board, end);
  const arm = armOf(board.arms, end);
  const placed: PlacedTile = { tile, inner: v, outer: tile.high === v ? tile.low : tile.high };
  const grown = arm.slice();
  grown.push(placed);
  const a = board.arms;
  // Field by field, not a computed-key spread: one hidden class for every layout.
  const arms = {
    LEFT: end === 'LEFT' ? grown : a.LEFT,
    RIGHT: end === 'RIGHT' ? grown : a.RIGHT,
    UP: end === 'UP' ? grown : a.UP,
    DOWN: end === 'DOWN' ? grown : a.DOWN,
  };
  let spinner = board.spinner;
  if (spinner === null && double && spinnerMode === 'FIRST_DOUBLE' && (end === 'LEFT' || end === 'RIGHT')) {
    spinner = { arm: end, index: arm.length, tile };
  }
  return { lead: board.lead, arms, spinner };
}

/** Builds a layout from (tile, end) plays in order, e.g. a view's move log or a test table. */
export function buildBoard(
  plays: readonly { readonly tile: Tile; readonly end: End | null }[],
  spinnerMode: SpinnerMode = 'FIRST_DOUBLE',
): BoardState {
  let board = EMPTY_BOARD;
  for (const p of plays) {
    const tile = normalizeTile(p.tile);
    if (board.lead !== null && (p.end === null || !fits(board, tile, p.end))) {
      throw new Error(`cannot place ${tile.high}-${tile.low} on ${String(p.end)}`);
    }
    board = placeTile(board, tile, p.end, spinnerMode);
  }
  return board;
}
