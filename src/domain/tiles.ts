/**
 * Tiles of the double-six set (R1). Every tile the engine stores is one of the shared, frozen
 * objects of ALL_TILES: normalising returns the canonical instance, so the engine never allocates
 * a tile in its hot path and a JSON round trip still deep-equals the state.
 */
import type { Tile } from './types.js';

/** Canonical order: 0-0, 1-0, 1-1, 2-0, 2-1, 2-2, …, 6-6 (index = high·(high+1)/2 + low). */
export const ALL_TILES: readonly Tile[] = Object.freeze(
  (() => {
    const tiles: Tile[] = [];
    for (let high = 0; high <= 6; high++) {
      for (let low = 0; low <= high; low++) tiles.push(Object.freeze({ high, low }));
    }
    return tiles;
  })(),
);

export const TILE_COUNT = 28;

/**
 * The same tiles in a plain (unfrozen) array: V8 copies a frozen array about 50× slower, and every
 * deal starts from a copy of the set.
 */
export const FRESH_SET: readonly Tile[] = Array.from(ALL_TILES);

function isPip(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 6;
}

/** True when both halves are integers 0..6 (either order). */
export function isValidTile(t: unknown): t is Tile {
  if (t === null || typeof t !== 'object') return false;
  const o = t as { high?: unknown; low?: unknown };
  return isPip(o.high) && isPip(o.low);
}

/** Index of a normalised tile in ALL_TILES. */
export function tileIndex(t: Tile): number {
  return (t.high * (t.high + 1)) / 2 + t.low;
}

/** The canonical instance of a tile given in either order. Throws on a malformed tile. */
export function normalizeTile(t: { readonly high: number; readonly low: number }): Tile {
  if (!isValidTile(t)) throw new Error(`invalid tile ${JSON.stringify(t)}`);
  const high = t.high >= t.low ? t.high : t.low;
  const low = t.high >= t.low ? t.low : t.high;
  return ALL_TILES[(high * (high + 1)) / 2 + low];
}

export function sameTile(a: Tile, b: Tile): boolean {
  return a.high === b.high && a.low === b.low;
}

export function isDouble(t: Tile): boolean {
  return t.high === t.low;
}

export function tileKey(t: Tile): string {
  return `${t.high}-${t.low}`;
}

/** Sum of pips (R1: 0-0 counts 0). */
export function pipCount(tiles: readonly Tile[]): number {
  let sum = 0;
  for (let i = 0; i < tiles.length; i++) sum += tiles[i].high + tiles[i].low;
  return sum;
}

/** Hands are kept sorted in ALL_TILES order so that legal moves come out in a stable order. */
export function compareTiles(a: Tile, b: Tile): number {
  return tileIndex(a) - tileIndex(b);
}

/** A copy of `hand` with `tile` inserted at its sorted position. */
export function insertSorted(hand: readonly Tile[], tile: Tile): Tile[] {
  const idx = tileIndex(tile);
  const out: Tile[] = [];
  let placed = false;
  for (let i = 0; i < hand.length; i++) {
    if (!placed && tileIndex(hand[i]) > idx) {
      out.push(tile);
      placed = true;
    }
    out.push(hand[i]);
  }
  if (!placed) out.push(tile);
  return out;
}

/** Position of a tile in a hand, or -1. */
export function indexInHand(hand: readonly Tile[], tile: Tile): number {
  for (let i = 0; i < hand.length; i++) if (hand[i].high === tile.high && hand[i].low === tile.low) return i;
  return -1;
}
