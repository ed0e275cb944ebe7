/**
 * Sets of tiles as 28-bit masks (bit i = ALL_TILES[i]): the bots' search copies and tests hands
 * millions of times per second, which plain arrays of tiles would make allocation-bound.
 */
import { ALL_TILES } from '../tiles.js';
import type { Tile } from '../types.js';

export const FULL_SET = (1 << ALL_TILES.length) - 1;

/** WITH_PIP[v]: every tile showing v on either half. */
export const WITH_PIP: readonly number[] = Array.from({ length: 7 }, (_, v) =>
  ALL_TILES.reduce((mask, t, i) => (t.high === v || t.low === v ? mask | (1 << i) : mask), 0),
);

export const PIPS: readonly number[] = ALL_TILES.map((t) => t.high + t.low);

export function bitOf(t: Tile): number {
  return 1 << ((t.high * (t.high + 1)) / 2 + t.low);
}

export function maskOf(tiles: readonly Tile[]): number {
  let m = 0;
  for (let i = 0; i < tiles.length; i++) m |= bitOf(tiles[i]);
  return m;
}

export function tilesOf(mask: number): Tile[] {
  const out: Tile[] = [];
  for (let i = 0; mask !== 0; i++, mask >>>= 1) if (mask & 1) out.push(ALL_TILES[i]);
  return out;
}

export function popcount(m: number): number {
  m = m - ((m >>> 1) & 0x55555555);
  m = (m & 0x33333333) + ((m >>> 2) & 0x33333333);
  return (((m + (m >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Index of the lowest set bit (the mask must not be 0). */
export function lowestIndex(m: number): number {
  return 31 - Math.clz32(m & -m);
}

/** The pip total of a set of tiles. */
export function pipsOf(mask: number): number {
  let sum = 0;
  for (let i = 0; mask !== 0; i++, mask >>>= 1) if (mask & 1) sum += PIPS[i];
  return sum;
}
