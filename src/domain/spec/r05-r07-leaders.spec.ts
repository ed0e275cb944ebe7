/** R5 first leader, R6 lead, R7 turn order. */
import { newMatch } from '../match.js';
import { bestDraw, dealRound, highestDoubleLeader, lotRank } from '../round.js';
import { resolveRules } from '../rules.js';
import { ALL_TILES } from '../tiles.js';
import { apply } from '../match.js';
import { legalMoves } from '../legal.js';
import { config, hand, lotOf, play, position, t, testDeal } from './kit.js';

describe('R5 first leader by lot', () => {
  it.each([
    [['6-5', '1-1'], 1], // any double beats a non-double
    [['3-3', '2-2', '6-6'], 2], // higher double wins
    [['6-4', '5-2', '0-1'], 0], // highest total
    [['5-4', '6-3'], 1], // [engine] equal totals: higher larger half
  ])('draws %j → seat %i leads', (drawn, seat) => expect(bestDraw(drawn.map(t))).toBe(seat));
  it('ranks every tile distinctly (no ties possible between different tiles)', () => {
    expect(new Set(ALL_TILES.map(lotRank)).size).toBe(28);
  });
  it('is deterministic per deal and reaches every seat (DRAW and RANDOM)', () => {
    for (const firstLeader of ['DRAW', 'RANDOM'] as const) {
      const seen = new Set<number>();
      for (let seed = 0; seed < 200; seed++) {
        const s = lotOf(testDeal(seed, 4), 1, 4, { firstLeader });
        expect(lotOf(testDeal(seed, 4), 1, 4, { firstLeader })).toBe(s);
        seen.add(s);
      }
      expect([...seen].sort()).toEqual([0, 1, 2, 3]);
    }
  });
  it('round 1 is led by the lot winner', () => {
    const cfg = config(3, false, {}, 42);
    const { state, events } = newMatch(cfg);
    expect(state.round.starter).toBe(lotOf(cfg.deal, 1, 3, cfg.rules));
    expect(state.round.turn).toBe(state.round.starter);
    expect(events).toEqual([{ type: 'ROUND_STARTED', round: 1, starter: state.round.starter }]);
  });
});

describe('R6 lead', () => {
  it('the leader may lead any tile held, with no end', () => {
    const { state } = newMatch(config(2, false, {}, 3));
    const seat = state.round.turn;
    expect(legalMoves(state, seat)).toEqual(state.round.hands[seat].map((tile) => ({ tile, end: null })));
  });
  it('an end given with the lead is refused (NO_SUCH_END)', () => {
    const s = position({ hands: [['6-4'], ['1-1']] });
    expect(apply(s, { type: 'PLAY', seat: 0, tile: t('6-4'), end: 'LEFT' })).toMatchObject({ ok: false, violation: { code: 'NO_SUCH_END' } });
  });
  describe('variant HIGHEST_DOUBLE', () => {
    it('the holder of the highest double leads it; anything else is refused', () => {
      for (let seed = 0; seed < 30; seed++) {
        const { state } = newMatch(config(4, true, { leadRule: 'HIGHEST_DOUBLE' }, seed));
        const r = state.round;
        expect(r.mustPlay).toEqual(t('6-6')); // with 4 × 7 every double is dealt
        expect(r.hands[r.turn]).toContainEqual(t('6-6'));
        expect(legalMoves(state, r.turn)).toEqual([{ tile: t('6-6'), end: null }]);
        const other = r.hands[r.turn].find((x) => x.high !== 6 || x.low !== 6)!;
        expect(apply(state, { type: 'PLAY', seat: r.turn, tile: other })).toMatchObject({
          ok: false,
          violation: { code: 'MUST_LEAD_HIGHEST_DOUBLE' },
        });
        expect(apply(state, { type: 'PLAY', seat: r.turn, tile: t('6-6') }).ok).toBe(true);
      }
    });
    it('[engine] no double dealt: the heaviest hand leads with any tile', () => {
      expect(highestDoubleLeader([hand('1-0', '2-0'), hand('6-5', '4-3'), hand('6-4')], 0)).toEqual({ seat: 1, tile: null });
      expect(highestDoubleLeader([hand('1-0', '2-2'), hand('6-5', '4-4')], 0)).toEqual({ seat: 1, tile: t('4-4') });
    });
    it('[engine] equally heavy hands: the first clockwise from the lot winner, the lot winner itself first', () => {
      const hands = [hand('6-5'), hand('1-0'), hand('5-4', '2-0'), hand('6-4', '1-0')];
      // Seats 0, 2 and 3 hold 11 pips each; seat 1 holds 1.
      expect(highestDoubleLeader(hands, 0)).toEqual({ seat: 0, tile: null });
      expect(highestDoubleLeader(hands, 1)).toEqual({ seat: 2, tile: null });
      expect(highestDoubleLeader(hands, 3)).toEqual({ seat: 3, tile: null });
    });
    it('only applies to rounds led by lot', () => {
      const r = dealRound(2, testDeal(5, 4), 4, resolveRules({ leadRule: 'HIGHEST_DOUBLE' }), 3);
      expect(r.starter).toBe(3);
      expect(r.mustPlay).toBeNull();
    });
  });
});

describe('R7 turn order', () => {
  it('play passes clockwise from seat i to seat i+1', () => {
    let s = position({
      seats: 4,
      hands: [
        ['6-5', '6-0'],
        ['5-4', '2-2'],
        ['4-3', '0-0'],
        ['3-2', '1-0'],
      ],
    });
    const turns: number[] = [];
    for (const [tile, end] of [
      ['6-5', null],
      ['5-4', 'RIGHT'],
      ['4-3', 'RIGHT'],
      ['3-2', 'RIGHT'],
    ] as const) {
      turns.push(s.round.turn);
      s = play(s, tile, end).state;
    }
    expect(turns).toEqual([0, 1, 2, 3]);
    expect(s.round.turn).toBe(0);
  });
});
