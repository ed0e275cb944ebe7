/**
 * The bots' own small generator (mulberry32): the search draws millions of numbers per second,
 * and it need not be cryptographic or match the deal's generator, only reproducible from a seed.
 */
export interface BotRng {
  /** A uniform 32-bit unsigned integer. */
  next(): number;
  /** A uniform integer in [0, n). */
  below(n: number): number;
}

export function botRng(seed: number): BotRng {
  let a = (seed ^ Math.floor(seed / 0x100000000)) >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return { next, below: (n) => Math.floor((next() / 0x100000000) * n) };
}
