/**
 * Seeded randomness. The engine has no ambient randomness or clock: every shuffle comes from a
 * seed through pure-rand's xoroshiro128+, so a round replays exactly from its seed.
 *
 * Seeds are 53-bit integers (exact as JS numbers and as PostgreSQL bigints), and a deal's
 * generator is seeded with all 53 bits. With 32-bit seeds, a player could enumerate every deal
 * (2^32 shuffles: hours in JavaScript, minutes in C), keep the few consistent with their own
 * hand, and read the other hands and the boneyard: hidden information depends on the seed space
 * being too large to search, not on the seed staying secret alone.
 */
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { FRESH_SET } from './tiles.js';
import type { Tile } from './types.js';

export type Rng = RandomGenerator;

/** murmur3's 32-bit finaliser: a cheap avalanche so neighbouring inputs give unrelated seeds. */
function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The largest seed: 2^53 − 1. */
export const MAX_SEED = Number.MAX_SAFE_INTEGER;

const TWO_32 = 0x100000000;
const low32 = (seed: number) => (seed % TWO_32) >>> 0;
const high21 = (seed: number) => Math.floor(seed / TWO_32) >>> 0;
/** A 53-bit seed from two mixed 32-bit words (21 bits of the first, all of the second). */
const join53 = (high: number, low: number) => (high & 0x1fffff) * TWO_32 + (low >>> 0);
/**
 * One 32-bit word that depends on both halves of a seed. Every derived word is made this way, so
 * no output can be matched against a search of 32 bits alone (the low half, say).
 */
const both = (a: number, b: number, salt: number) => mix32(a ^ mix32((b ^ salt) >>> 0));

/** A 53-bit seed derived from `seed` for one purpose (`salt`), unrelated to it and to other salts. */
function derive(seed: number, salt: number): number {
  const low = both(low32(seed), high21(seed), salt);
  return join53(both(high21(seed), low, salt ^ 0x27d4eb2f), low);
}

/** The seed of round `round` of a match seeded with `matchSeed`: 53 bits, unrelated between rounds. */
export function roundSeed(matchSeed: number, round: number): number {
  return derive(matchSeed, mix32(Math.imul(round, 0x9e3779b9) + 0x632be5ab));
}

/** A second, independent stream of the same round, for choosing the leader by lot (R5). */
export function lotSeed(seed: number): number {
  return derive(seed, 0x5bd1e995);
}

/**
 * The 32-bit seed of a bot's choice at one position of a match (`lastSeq`): reproducible, and
 * like every derived word tied to all 53 bits, so watching bots play reveals no searchable part
 * of the match's seed.
 */
export function botSeed(matchSeed: number, lastSeq: number): number {
  return both(low32(matchSeed), high21(matchSeed), mix32(Math.imul(lastSeq, 0x85ebca6b) + 0x1b873593));
}

/** A generator whose whole 128-bit state derives from all 53 bits of the seed (never all zero). */
export function makeRng(seed: number): Rng {
  const low = low32(seed);
  const high = high21(seed);
  return xoroshiro128plusFromState([
    both(low, high, 0x9e3779b9) | 0,
    both(high, low, 0x7f4a7c15) | 0,
    both(low, high, 0xbb67ae85) | 0,
    both(high, low, 0x3c6ef372) | 0,
  ]);
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
