/**
 * Seeded randomness for choices that are not deals (the random bot, test drivers): pure-rand's
 * xoroshiro128+ whose whole state derives from all 53 bits of a seed, so a choice replays exactly
 * from its seed. Deals never use it: they come from the fair-deal stream (fair-deal.ts).
 */
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

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

const TWO_32 = 0x100000000;
const low32 = (seed: number) => (seed % TWO_32) >>> 0;
const high21 = (seed: number) => Math.floor(seed / TWO_32) >>> 0;
/**
 * One 32-bit word that depends on both halves of a seed. Every derived word is made this way, so
 * no output can be matched against a search of 32 bits alone (the low half, say).
 */
const both = (a: number, b: number, salt: number) => mix32(a ^ mix32((b ^ salt) >>> 0));

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
