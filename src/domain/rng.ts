/**
 * Seeded randomness. The engine has no ambient randomness or clock: every shuffle comes from a uint32 seed
 * through pure-rand's xoroshiro128+, so a round replays exactly from its seed.
 */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { FRESH_SET } from './tiles.js';
import type { Tile } from './types.js';

export type Rng = RandomGenerator;

/** murmur3's 32-bit finaliser: a cheap avalanche so neighbouring inputs give unrelated seeds. */
export function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The seed of round `round` of a match seeded with `matchSeed` (uint32). */
export function roundSeed(matchSeed: number, round: number): number {
  return mix32((matchSeed >>> 0) ^ mix32(Math.imul(round, 0x9e3779b9) + 0x632be5ab));
}

/** A second, independent stream of the same round, for choosing the leader by lot (R5). */
export function lotSeed(seed: number): number {
  return mix32((seed >>> 0) ^ 0x5bd1e995);
}

export function makeRng(seed: number): Rng {
  return xoroshiro128plus(seed | 0);
}

/** Uniform integer in [from, to]. */
export function randInt(rng: Rng, from: number, to: number): number {
  return uniformInt(rng, from, to);
}

/**
 * Uniform integer in [0, n) for small n, by rejection sampling on one 32-bit output: unbiased
 * like pure-rand's uniformInt, without its general (64-bit range) machinery. The shuffle is the
 * hottest path of a deal.
 */
function below(rng: Rng, n: number): number {
  const limit = Math.floor(0x100000000 / n) * n;
  let v = rng.next() >>> 0;
  while (v >= limit) v = rng.next() >>> 0;
  return v % n;
}

/** A uniformly shuffled copy of the 28 tiles (Fisher–Yates). */
export function shuffledSet(rng: Rng): Tile[] {
  const deck = FRESH_SET.slice();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = below(rng, i + 1);
    const t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
  return deck;
}

/** The first `n` tiles of a fresh shuffle: a partial Fisher–Yates, enough for one draw per seat. */
export function drawDistinct(rng: Rng, n: number): Tile[] {
  const deck = FRESH_SET.slice();
  const out: Tile[] = [];
  for (let i = 0; i < n; i++) {
    const j = i + below(rng, deck.length - i);
    const t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
    out.push(deck[i]);
  }
  return out;
}
