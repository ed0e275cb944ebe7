/** Seeds: 53 bits, all of them reaching the deal (a 32-bit deal space could be searched from one's own hand). */
import fc from 'fast-check';
import { newMatch } from '../match.js';
import { botSeed, lotSeed, MAX_SEED, roundSeed } from '../rng.js';
import { config } from './kit.js';

const handsOf = (seed: number) => newMatch(config(2, false, {}, seed)).state.round.hands;

describe('seeds', () => {
  it('accepts every integer from 0 to 2^53 − 1 and nothing else', () => {
    expect(() => newMatch(config(2, false, {}, 0))).not.toThrow();
    expect(() => newMatch(config(2, false, {}, MAX_SEED))).not.toThrow();
    for (const bad of [-1, MAX_SEED + 1, 1.5, Number.NaN]) expect(() => newMatch(config(2, false, {}, bad))).toThrow(/seed must be/);
  });

  it('deals from all 53 bits: seeds that agree in their low 32 bits deal differently', () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), fc.integer({ min: 1, max: 0x1fffff }), (low, high) => {
        expect(handsOf(high * 2 ** 32 + low)).not.toEqual(handsOf(low));
      }),
      { numRuns: 200 },
    );
  });

  it('derives round and lot seeds within the seed space, different round to round', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.integer({ min: 1, max: 50 }), (seed, round) => {
        const r = roundSeed(seed, round);
        expect(Number.isSafeInteger(r) && r >= 0 && r <= MAX_SEED).toBe(true);
        expect(roundSeed(seed, round + 1)).not.toBe(r);
        const l = lotSeed(r);
        expect(Number.isSafeInteger(l) && l >= 0 && l <= MAX_SEED).toBe(true);
      }),
    );
  });
});

describe('bot seeds', () => {
  it('depend on all 53 bits of the match seed, and differ from position to position', () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), fc.integer({ min: 1, max: 0x1fffff }), fc.nat({ max: 500 }), (low, high, seq) => {
        const seed = high * 2 ** 32 + low;
        // A search over the low 32 bits alone cannot reproduce a bot's choices.
        expect(botSeed(seed, seq)).not.toBe(botSeed(low, seq));
        expect(botSeed(seed, seq + 1)).not.toBe(botSeed(seed, seq));
      }),
      { numRuns: 200 },
    );
  });
});
