/** Bots' seeds: keyed by the chain's never-revealed anchor, different at every position. */
import fc from 'fast-check';
import { botSeed } from '../bots/seed.js';
import { testDeal } from './kit.js';

describe('bot seeds', () => {
  it('are 53-bit integers, differ from position to position and from match to match', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000 }), fc.nat({ max: 500 }), (n, seq) => {
        const deal = testDeal(n, 2);
        const s = botSeed(deal, seq);
        expect(Number.isSafeInteger(s) && s >= 0).toBe(true);
        expect(botSeed(deal, seq)).toBe(s);
        expect(botSeed(deal, seq + 1)).not.toBe(s);
        expect(botSeed(testDeal(n + 1, 2), seq)).not.toBe(s);
      }),
      { numRuns: 200 },
    );
  });
});
