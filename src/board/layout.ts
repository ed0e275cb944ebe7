/**
 * Where each tile of a round's layout lies on a picture, from the round's plays alone.
 * Pure and free of Node and DOM APIs: the server's board.svg and the web client both import it,
 * so the two always draw the same layout.
 *
 * The engine's placeTile decides the shape (arms, spinner, which half faces out); this file only
 * gives it geometry, in units of one tile half: a non-double lies along its arm (2 × 1), a double
 * lies across it (1 × 2). LEFT and RIGHT grow horizontally from the lead; UP and DOWN grow
 * vertically from the spinner, wherever along the line it lies.
 */
import { EMPTY_BOARD, placeTile } from '../domain/board.js';
import { normalizeTile } from '../domain/tiles.js';
import type { BoardState, End, PlacedTile, SpinnerMode, Tile } from '../domain/types.js';

/** One drawn tile: its box, and the pips of its first half (left or top) and second half. */
export interface TileBox {
  x: number;
  y: number;
  w: number;
  h: number;
  first: number;
  second: number;
  /** Order of play within the round, from 0 (the lead). */
  order: number;
  spinner: boolean;
}

export interface Layout {
  tiles: TileBox[];
  /** Where a tile played to each open end would go: a point just past the arm's last tile. */
  anchors: Partial<Record<End, { x: number; y: number }>>;
  bounds: { minX: number; minY: number; maxX: number; maxY: number };
}

export interface Play {
  tile: Tile;
  end: End | null;
}

/** The layout after these plays, in order (the round's PLAY moves). */
export function layoutOf(plays: readonly Play[], spinnerMode: SpinnerMode): Layout {
  let board: BoardState = EMPTY_BOARD;
  const orderOf = new Map<string, number>();
  plays.forEach((p, i) => {
    const tile = normalizeTile(p.tile);
    board = placeTile(board, tile, board.lead === null ? null : p.end, spinnerMode);
    orderOf.set(`${tile.high}-${tile.low}`, i);
  });
  return geometry(board, (t) => orderOf.get(`${t.high}-${t.low}`) ?? 0);
}

function geometry(board: BoardState, orderOf: (t: Tile) => number): Layout {
  const tiles: TileBox[] = [];
  const lead = board.lead;
  if (lead === null) return { tiles, anchors: {}, bounds: { minX: -1, minY: -1, maxX: 1, maxY: 1 } };
  const spin = board.spinner;
  const leadDouble = lead.high === lead.low;
  tiles.push(
    leadDouble
      ? { x: -0.5, y: -1, w: 1, h: 2, first: lead.high, second: lead.low, order: 0, spinner: spin?.arm === 'LEAD' }
      : { x: -1, y: -0.5, w: 2, h: 1, first: lead.high, second: lead.low, order: 0, spinner: false },
  );
  const half = leadDouble ? 0.5 : 1;
  let spinnerX = 0;
  const line = (arm: readonly PlacedTile[], dir: -1 | 1, armName: 'LEFT' | 'RIGHT'): number => {
    let cursor = dir * half;
    arm.forEach((p, i) => {
      const double = p.tile.high === p.tile.low;
      const w = double ? 1 : 2;
      const x = dir < 0 ? cursor - w : cursor;
      const isSpinner = spin !== null && spin.arm === armName && spin.index === i;
      if (isSpinner) spinnerX = x + w / 2;
      tiles.push({
        x,
        y: double ? -1 : -0.5,
        w,
        h: double ? 2 : 1,
        // The half that touches the previous tile faces the lead.
        first: dir < 0 ? p.outer : p.inner,
        second: dir < 0 ? p.inner : p.outer,
        order: orderOf(p.tile),
        spinner: isSpinner,
      });
      cursor += dir * w;
    });
    return cursor;
  };
  const left = line(board.arms.LEFT, -1, 'LEFT');
  const right = line(board.arms.RIGHT, 1, 'RIGHT');
  const column = (arm: readonly PlacedTile[], dir: -1 | 1): number => {
    let cursor = dir * 1; // the spinner lies across the line: one half above it, one below
    for (const p of arm) {
      const double = p.tile.high === p.tile.low;
      const h = double ? 1 : 2;
      const y = dir < 0 ? cursor - h : cursor;
      tiles.push({
        x: double ? spinnerX - 1 : spinnerX - 0.5,
        y,
        w: double ? 2 : 1,
        h,
        first: dir < 0 ? p.outer : p.inner,
        second: dir < 0 ? p.inner : p.outer,
        order: orderOf(p.tile),
        spinner: false,
      });
      cursor += dir * h;
    }
    return cursor;
  };
  const up = column(board.arms.UP, -1);
  const down = column(board.arms.DOWN, 1);
  const gap = 0.8;
  const anchors: Layout['anchors'] = { LEFT: { x: left - gap, y: 0 }, RIGHT: { x: right + gap, y: 0 } };
  if (spin !== null) {
    anchors.UP = { x: spinnerX, y: up - gap };
    anchors.DOWN = { x: spinnerX, y: down + gap };
  }
  const xs = tiles.flatMap((t) => [t.x, t.x + t.w]).concat(Object.values(anchors).map((a) => a.x));
  const ys = tiles.flatMap((t) => [t.y, t.y + t.h]).concat(Object.values(anchors).map((a) => a.y));
  return {
    tiles,
    anchors,
    bounds: { minX: Math.min(...xs) - 0.6, minY: Math.min(...ys) - 0.6, maxX: Math.max(...xs) + 0.6, maxY: Math.max(...ys) + 0.6 },
  };
}
