/**
 * The layout for the search's simulations: the same rules as board.ts (R9–R12, both spinner
 * modes, the spinner-ends variant), kept as a few numbers that a play updates in place and a
 * probe undoes, instead of an immutable tree of arms. The search places hundreds of thousands of
 * tiles per move; a spec checks this against board.ts on random layouts.
 */
import type { BoardState, End, SpinnerMode, Tile } from '../types.js';

export const LEFT = 0;
export const RIGHT = 1;
export const UP = 2;
export const DOWN = 3;
const END_NAMES: readonly End[] = ['LEFT', 'RIGHT', 'UP', 'DOWN'];

export function endIndex(end: End): number {
  return end === 'LEFT' ? LEFT : end === 'RIGHT' ? RIGHT : end === 'UP' ? UP : DOWN;
}

export function endName(i: number): End {
  return END_NAMES[i];
}

/** Where the spinner lies: none, the lead, or an arm (LEFT/RIGHT). */
const NO_SPINNER = -1;
const LEAD = 4;

export class FastBoard {
  leadHigh = -1; // -1 before the lead
  leadLow = -1;
  readonly len = new Int32Array(4);
  readonly outer = new Int32Array(4);
  readonly lastDouble = new Uint8Array(4);
  spinnerAt = NO_SPINNER;
  spinnerIndex = 0;
  spinnerValue = 0;

  constructor(
    readonly spinnerMode: SpinnerMode,
    readonly spinnerEndsCount: boolean,
  ) {}

  static from(board: BoardState, spinnerMode: SpinnerMode, spinnerEndsCount: boolean): FastBoard {
    const b = new FastBoard(spinnerMode, spinnerEndsCount);
    if (board.lead === null) return b;
    b.leadHigh = board.lead.high;
    b.leadLow = board.lead.low;
    const arms = [board.arms.LEFT, board.arms.RIGHT, board.arms.UP, board.arms.DOWN];
    for (let e = 0; e < 4; e++) {
      const arm = arms[e];
      b.len[e] = arm.length;
      if (arm.length > 0) {
        const last = arm[arm.length - 1];
        b.outer[e] = last.outer;
        b.lastDouble[e] = last.tile.high === last.tile.low ? 1 : 0;
      }
    }
    const s = board.spinner;
    if (s !== null) {
      b.spinnerAt = s.arm === 'LEAD' ? LEAD : s.arm === 'LEFT' ? LEFT : RIGHT;
      b.spinnerIndex = s.index;
      b.spinnerValue = s.tile.high;
    }
    return b;
  }

  copyFrom(o: FastBoard): void {
    this.leadHigh = o.leadHigh;
    this.leadLow = o.leadLow;
    this.len.set(o.len);
    this.outer.set(o.outer);
    this.lastDouble.set(o.lastDouble);
    this.spinnerAt = o.spinnerAt;
    this.spinnerIndex = o.spinnerIndex;
    this.spinnerValue = o.spinnerValue;
  }

  get empty(): boolean {
    return this.leadHigh < 0;
  }

  private sidesOccupied(): number {
    const at = this.spinnerAt;
    if (at === NO_SPINNER) return 0;
    if (at === LEAD) return (this.len[LEFT] > 0 ? 1 : 0) + (this.len[RIGHT] > 0 ? 1 : 0);
    return this.len[at] > this.spinnerIndex + 1 ? 2 : 1;
  }

  /** The pips end `e` offers, or -1 when it is not open. */
  endValue(e: number): number {
    if (this.leadHigh < 0) return -1;
    if (e === LEFT) return this.len[LEFT] > 0 ? this.outer[LEFT] : this.leadHigh;
    if (e === RIGHT) return this.len[RIGHT] > 0 ? this.outer[RIGHT] : this.leadLow;
    if (this.spinnerAt === NO_SPINNER || this.sidesOccupied() < 2) return -1;
    return this.len[e] > 0 ? this.outer[e] : this.spinnerValue;
  }

  private tail(e: number): number {
    if (this.len[e] === 0) return 0;
    return this.lastDouble[e] === 1 ? 2 * this.outer[e] : this.outer[e];
  }

  /** C, the open-end sum (R12). */
  count(): number {
    const hi = this.leadHigh;
    if (hi < 0) return 0;
    const lo = this.leadLow;
    let c = 0;
    if (hi === lo) {
      if (this.len[LEFT] === 0 || this.len[RIGHT] === 0) c += 2 * hi;
    } else {
      if (this.len[LEFT] === 0) c += hi;
      if (this.len[RIGHT] === 0) c += lo;
    }
    c += this.tail(LEFT) + this.tail(RIGHT) + this.tail(UP) + this.tail(DOWN);
    if (this.spinnerEndsCount && this.spinnerAt !== NO_SPINNER && this.sidesOccupied() === 2) {
      if (this.len[UP] === 0) c += this.spinnerValue;
      if (this.len[DOWN] === 0) c += this.spinnerValue;
    }
    return c;
  }

  /** Places a tile known to fit end `e` (ignored for the lead). */
  place(t: Tile, e: number): void {
    const double = t.high === t.low;
    if (this.leadHigh < 0) {
      this.leadHigh = t.high;
      this.leadLow = t.low;
      if (double && this.spinnerMode === 'FIRST_DOUBLE') {
        this.spinnerAt = LEAD;
        this.spinnerValue = t.high;
      }
      return;
    }
    const v = this.endValue(e);
    if (this.spinnerAt === NO_SPINNER && double && this.spinnerMode === 'FIRST_DOUBLE' && e <= RIGHT) {
      this.spinnerAt = e;
      this.spinnerIndex = this.len[e];
      this.spinnerValue = t.high;
    }
    this.len[e] += 1;
    this.outer[e] = t.high === v ? t.low : t.high;
    this.lastDouble[e] = double ? 1 : 0;
  }

  /** C after placing `t` at `e`, leaving the layout as it was. */
  countIf(t: Tile, e: number): number {
    if (this.leadHigh < 0) return t.high === t.low ? 2 * t.high : t.high + t.low;
    const len = this.len[e];
    const outer = this.outer[e];
    const lastDouble = this.lastDouble[e];
    const at = this.spinnerAt;
    const index = this.spinnerIndex;
    const value = this.spinnerValue;
    this.place(t, e);
    const c = this.count();
    this.len[e] = len;
    this.outer[e] = outer;
    this.lastDouble[e] = lastDouble;
    this.spinnerAt = at;
    this.spinnerIndex = index;
    this.spinnerValue = value;
    return c;
  }
}
