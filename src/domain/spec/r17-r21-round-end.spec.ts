/** R17 end of hand, R18 domino bonus, R19 blocked bonus, R20 ties, R21 round5. */
import { blockedBonus, dominoBonus, round5 } from '../scoring.js';
import { hand, play, position } from './kit.js';

describe('R17 end of hand', () => {
  it('(a) domino: the last tile scores first, then the hand ends at once', () => {
    const s = position({ hands: [['1-4'], ['3-3', '2-2']], plays: [['6-4', null]] });
    const r = play(s, '1-4', 'RIGHT');
    expect(r.events.map((e) => e.type)).toEqual(['TILE_PLAYED', 'ROUND_ENDED', 'ROUND_STARTED']);
    const ended = r.events[1];
    expect(ended).toMatchObject({ result: { end: 'DOMINO', dominoSeat: 0, awarded: [10, 0], hands: [[], hand('3-3', '2-2')] } });
    if (ended.type === 'ROUND_ENDED') {
      expect(ended.finalRound).toMatchObject({ number: 1, status: 'FINISHED', result: ended.result });
      expect(ended.finalRound.moves).toHaveLength(2); // the layout's lead, then the domino
    }
  });
  it('(a) in partnerships one partner going out ends the hand', () => {
    const s = position({ seats: 4, partnerships: true, hands: [['0-1'], ['2-3'], ['6-6', '5-5'], ['3-4']], plays: [['1-1', null]] });
    const r = play(s, '0-1', 'LEFT');
    expect(r.events.find((e) => e.type === 'ROUND_ENDED')).toMatchObject({ result: { end: 'DOMINO', awarded: [10, 0] } });
  });
  it('(b) blocked right after the lead', () => {
    const s = position({ hands: [['0-0', '6-5'], ['6-6']], boneyard: [] });
    const r = play(s, '0-0');
    expect(r.events.map((e) => e.type)).toEqual(['TILE_PLAYED', 'TURN_PASSED', 'TURN_PASSED', 'ROUND_ENDED', 'ROUND_STARTED']);
  });
  it('(b) blocked with a reserve left in the boneyard', () => {
    const s = position({
      hands: [
        ['5-5', '2-3'],
        ['6-6', '4-1'],
      ],
      plays: [['5-0', null]],
      boneyard: ['1-1', '2-2'],
      rules: { reserve: 2 },
    });
    const r = play(s, '5-5', 'LEFT');
    expect(r.events.find((e) => e.type === 'ROUND_ENDED')).toMatchObject({ result: { end: 'BLOCKED' } });
  });
});

describe('R18 domino bonus', () => {
  const teamOfSeat4 = [0, 1, 0, 1];
  it.each([
    ['aggregate, 2 players', [[], hand('6-6', '0-1')], [0, 1], 'AGGREGATE', [15, 0]],
    ['aggregate, partner ignored', [[], hand('3-4'), hand('6-6'), hand('2-0')], teamOfSeat4, 'AGGREGATE', [10, 0]],
    ['per hand, partner ignored', [[], hand('3-4'), hand('6-6'), hand('2-0')], teamOfSeat4, 'PER_HAND', [5, 0]],
    ['3 players aggregate', [[], hand('1-1'), hand('0-2')], [0, 1, 2], 'AGGREGATE', [5, 0, 0]],
    ['3 players per hand', [[], hand('1-1'), hand('0-2')], [0, 1, 2], 'PER_HAND', [0, 0, 0]],
  ] as const)('%s', (_n, hands, teamOfSeat, rounding, awarded) => {
    const teams = Math.max(...teamOfSeat) + 1;
    expect(dominoBonus(hands as never, teamOfSeat, teams, 0, rounding)).toEqual(awarded);
  });
});

describe('R19 blocked bonus', () => {
  it.each([
    ['strictly lowest scores the others', [hand('2-3'), hand('6-6', '4-1')], [[0], [1]], 'OPPONENTS_TOTAL', [15, 0]],
    ['winner’s own pips not subtracted', [hand('4-3'), hand('6-6', '4-1')], [[0], [1]], 'OPPONENTS_TOTAL', [15, 0]],
    ['[variant] difference', [hand('2-3'), hand('6-6', '4-1')], [[0], [1]], 'DIFFERENCE', [10, 0]],
    [
      'partnership totals',
      [hand('3-3'), hand('5-2'), hand('0-1'), hand('1-2')],
      [
        [0, 2],
        [1, 3],
      ],
      'OPPONENTS_TOTAL',
      [10, 0],
    ],
    ['3 players, others summed', [hand('1-0'), hand('3-3'), hand('5-5')], [[0], [1], [2]], 'OPPONENTS_TOTAL', [15, 0, 0]],
    ['3 players, difference summed', [hand('1-0'), hand('3-3'), hand('5-5')], [[0], [1], [2]], 'DIFFERENCE', [15, 0, 0]],
  ] as const)('%s', (_n, hands, teams, variant, awarded) => {
    expect(blockedBonus(hands as never, teams as never, variant)).toEqual(awarded);
  });
});

describe('R20 ties for lowest in a block', () => {
  it.each([
    ['2 sides tie: nobody', [hand('4-4'), hand('6-2')], [[0], [1]], [0, 0]],
    [
      '2 teams tie: nobody',
      [hand('4-4'), hand('6-2'), hand('0-0'), hand('0-0')],
      [
        [0, 2],
        [1, 3],
      ],
      [0, 0],
    ],
    ['3 players, two tie: split 5·floor(R/10)', [hand('2-0'), hand('1-1'), hand('6-4', '5-5')], [[0], [1], [2]], [10, 10, 0]],
    ['3 players, R = 15 → 5 each', [hand('2-0'), hand('1-1'), hand('6-4', '4-1')], [[0], [1], [2]], [5, 5, 0]],
    ['3 players, all tie: nobody', [hand('2-0'), hand('1-1'), hand('0-2')], [[0], [1], [2]], [0, 0, 0]],
    ['[engine] 4 individuals, two tie', [hand('2-0'), hand('1-1'), hand('6-4'), hand('5-5')], [[0], [1], [2], [3]], [10, 10, 0, 0]],
    [
      '[engine] 4 individuals, three tie: 5·floor(R/15)',
      [hand('2-0'), hand('1-1'), hand('0-2'), hand('6-6', '5-5', '4-4')],
      [[0], [1], [2], [3]],
      [10, 10, 10, 0],
    ],
  ] as const)('%s', (_n, hands, teams, awarded) => {
    expect(blockedBonus(hands as never, teams as never, 'OPPONENTS_TOTAL')).toEqual(awarded);
  });
});

describe('R19/R20 under DIFFERENCE, as docs/rules.md states them [engine]', () => {
  it.each([
    // Differences 3 and 3: summed then rounded once, round5(6) = 5 (rounding each would give 10).
    ['differences summed, then rounded once', [hand('0-0'), hand('2-1'), hand('3-0')], [[0], [1], [2]], [5, 0, 0]],
    // Two of 4 individuals tie at 2: R = round5((10 − 2) + (10 − 2)) = 15, each 5·floor(15/10) = 5.
    ['4 individuals, two tie for lowest', [hand('2-0'), hand('1-1'), hand('6-4'), hand('5-5')], [[0], [1], [2], [3]], [5, 5, 0, 0]],
    // Three tie at 3: R = round5(23 − 3) = 20, each 5·floor(20/15) = 5.
    ['4 individuals, three tie for lowest', [hand('3-0'), hand('2-1'), hand('1-1', '1-0'), hand('6-6', '6-5')], [[0], [1], [2], [3]], [5, 5, 5, 0]],
    ['4 individuals, all tie: nobody', [hand('4-0'), hand('3-1'), hand('2-2'), hand('1-1', '2-0')], [[0], [1], [2], [3]], [0, 0, 0, 0]],
  ] as const)('%s', (_n, hands, teams, awarded) => {
    expect(blockedBonus(hands as never, teams as never, 'DIFFERENCE')).toEqual(awarded);
  });
  it('4 individuals, all tie under OPPONENTS_TOTAL: nobody', () => {
    expect(blockedBonus([hand('4-0'), hand('3-1'), hand('2-2'), hand('1-1', '2-0')] as never, [[0], [1], [2], [3]], 'OPPONENTS_TOTAL')).toEqual([
      0, 0, 0, 0,
    ]);
  });
});

describe('R21 round5', () => {
  it('is 5·floor((n+2)/5) for n = 0..200 and always a multiple of 5', () => {
    for (let n = 0; n <= 200; n++) {
      const r = round5(n);
      expect(r % 5).toBe(0);
      expect(Math.abs(r - n)).toBeLessThanOrEqual(2);
    }
  });
});
