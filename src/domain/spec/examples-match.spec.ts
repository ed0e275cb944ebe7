/** Worked examples E10–E23 of rules.md, played through apply() from fixed positions. */
import { apply } from '../match.js';
import { bestDraw } from '../round.js';
import { blockedBonus, dominoBonus, playScore, round5 } from '../scoring.js';
import { hand, ok, play, position, t } from './kit.js';

describe('E10 domino, 2 players', () => {
  const start = position({
    hands: [['1-5'], ['6-6', '0-1']],
    plays: [
      ['5-3', null],
      ['3-1', 'RIGHT'],
    ],
    boneyard: [],
  });
  const { state, events } = play(start, '1-5', 'RIGHT');
  it('A scores 10 for the play and 15 for B’s 13 pips', () => {
    expect(events[0]).toMatchObject({ type: 'TILE_PLAYED', move: { points: 10, count: 10 } });
    const ended = events.find((e) => e.type === 'ROUND_ENDED');
    expect(ended).toMatchObject({ result: { end: 'DOMINO', awarded: [15, 0], dominoSeat: 0 }, scores: [25, 0] });
    expect(state.scores).toEqual([25, 0]);
  });
  it('A leads the next hand', () => {
    expect(events.map((e) => e.type)).toEqual(['TILE_PLAYED', 'ROUND_ENDED', 'ROUND_STARTED']);
    expect(state.round.number).toBe(2);
    expect(state.round.starter).toBe(0);
    expect(state.round.turn).toBe(0);
  });
});

describe('E11 partnership domino', () => {
  it('P3’s 6-6 is ignored; P2 + P4 hold 9 pips → +10', () => {
    const start = position({
      seats: 4,
      partnerships: true,
      hands: [['2-1'], ['3-4'], ['6-6'], ['2-0']],
      plays: [['4-2', null]],
    });
    const { events } = play(start, '2-1', 'RIGHT');
    expect(events[0]).toMatchObject({ move: { count: 5, points: 5 } });
    expect(events.find((e) => e.type === 'ROUND_ENDED')).toMatchObject({ result: { awarded: [10, 0] }, scores: [15, 0] });
  });
});

describe('E12 3 players, rounding in aggregate', () => {
  const pos = (rounding: 'AGGREGATE' | 'PER_HAND') =>
    position({ hands: [['3-5'], ['1-1'], ['0-2']], plays: [['6-3', null]], rules: { dominoRounding: rounding } });
  it('aggregate: 2 + 2 = 4 → +5', () => {
    expect(play(pos('AGGREGATE'), '3-5', 'RIGHT').events.find((e) => e.type === 'ROUND_ENDED')).toMatchObject({ result: { awarded: [5, 0, 0] } });
  });
  it('per hand: 0 + 0', () => {
    expect(play(pos('PER_HAND'), '3-5', 'RIGHT').events.find((e) => e.type === 'ROUND_ENDED')).toMatchObject({ result: { awarded: [0, 0, 0] } });
  });
  it('dominoBonus directly', () => {
    expect(dominoBonus([[], hand('1-1'), hand('0-2')], [0, 1, 2], 3, 0, 'AGGREGATE')).toEqual([5, 0, 0]);
    expect(dominoBonus([[], hand('1-1'), hand('0-2')], [0, 1, 2], 3, 0, 'PER_HAND')).toEqual([0, 0, 0]);
  });
});

describe('E13 blocked, 2 players', () => {
  it('A (5 pips) gets round5(17) = 15; difference variant 10', () => {
    expect(blockedBonus([hand('2-3'), hand('6-6', '4-1')], [[0], [1]], 'OPPONENTS_TOTAL')).toEqual([15, 0]);
    expect(blockedBonus([hand('2-3'), hand('6-6', '4-1')], [[0], [1]], 'DIFFERENCE')).toEqual([10, 0]);
  });
  it('through apply: A plays 5-5, both pass, the hand is blocked', () => {
    const start = position({
      hands: [
        ['5-5', '2-3'],
        ['6-6', '4-1'],
      ],
      plays: [['5-0', null]],
    });
    const { state, events } = play(start, '5-5', 'LEFT');
    expect(events.map((e) => e.type)).toEqual(['TILE_PLAYED', 'TURN_PASSED', 'TURN_PASSED', 'ROUND_ENDED', 'ROUND_STARTED']);
    expect(events.find((e) => e.type === 'ROUND_ENDED')).toMatchObject({ result: { end: 'BLOCKED', awarded: [15, 0] }, scores: [25, 0] });
    expect(state.scores).toEqual([25, 0]);
  });
});

describe('E14 blocked tie, 2 players', () => {
  it('nobody scores', () => expect(blockedBonus([hand('4-4'), hand('6-2')], [[0], [1]], 'OPPONENTS_TOTAL')).toEqual([0, 0]));
});

describe('E15 blocked, partnerships', () => {
  it('team totals 7 vs 10: team 1 gets +10 although P4 has the lowest hand', () => {
    const hands = [hand('3-3'), hand('5-2'), hand('0-1'), hand('1-2')];
    expect(
      blockedBonus(
        hands,
        [
          [0, 2],
          [1, 3],
        ],
        'OPPONENTS_TOTAL',
      ),
    ).toEqual([10, 0]);
  });
});

describe('E16 blocked, 3 players, tie', () => {
  it('A and B split: +10 each', () => {
    expect(blockedBonus([hand('2-0'), hand('1-1'), hand('6-4', '5-5')], [[0], [1], [2]], 'OPPONENTS_TOTAL')).toEqual([10, 10, 0]);
  });
});

describe('E17 drawing, 2 players', () => {
  const pos = (boneyard: string[]) => position({ hands: [['6-6', '5-5', '1-2'], ['3-3']], plays: [['3-4', null]], boneyard });
  it('keeps 2-2 and 6-0, must play 4-5 on the 4: C 8, score 0', () => {
    let s = pos(['2-2', '6-0', '4-5', '1-1', '0-0']);
    s = ok(s, { type: 'DRAW', seat: 0 }).state;
    expect(s.round.mustPlay).toBeNull();
    s = ok(s, { type: 'DRAW', seat: 0 }).state;
    s = ok(s, { type: 'DRAW', seat: 0 }).state;
    expect(s.round.mustPlay).toEqual(t('4-5'));
    expect(s.round.turn).toBe(0);
    expect(apply(s, { type: 'PLAY', seat: 0, tile: t('6-6'), end: 'LEFT' })).toMatchObject({ ok: false });
    const r = play(s, '4-5');
    expect(r.events[0]).toMatchObject({ move: { end: 'LEFT', count: 8, points: 0 } });
    expect(r.state.round.hands[0]).toHaveLength(5);
    expect(r.state.round.boneyard).toHaveLength(2);
    expect(r.state.round.turn).toBe(1);
  });
  it('with only 2-2 and 6-0 left, P draws both and then passes', () => {
    let s = pos(['2-2', '6-0']);
    s = ok(s, { type: 'DRAW', seat: 0 }).state;
    const r = ok(s, { type: 'DRAW', seat: 0 });
    expect(r.events.map((e) => e.type)).toEqual(['TILE_DRAWN', 'TURN_PASSED']);
    expect(r.state.round.turn).toBe(1);
  });
});

describe('E18 must play', () => {
  it('drawing while holding a 3 for a showing 3 is illegal (R14)', () => {
    const s = position({ hands: [['3-1'], ['6-6']], plays: [['3-5', null]], boneyard: ['0-0'] });
    const r = apply(s, { type: 'DRAW', seat: 0 });
    expect(r).toMatchObject({ ok: false, violation: { code: 'MUST_PLAY' } });
  });
});

describe('E19 four players', () => {
  it('no boneyard; a player with no match passes; four passes block', () => {
    const s = position({
      seats: 4,
      hands: [['5-5', '1-2'], ['6-6'], ['4-4'], ['3-1']],
      plays: [['5-0', null]],
    });
    expect(apply(s, { type: 'DRAW', seat: 0 })).toMatchObject({ ok: false, violation: { code: 'MUST_PLAY' } });
    const r = play(s, '5-5', 'LEFT');
    expect(r.events.filter((e) => e.type === 'TURN_PASSED')).toHaveLength(4);
    expect(r.events.find((e) => e.type === 'ROUND_ENDED')).toMatchObject({ result: { end: 'BLOCKED' } });
  });
});

describe('E20 game end', () => {
  it('240 + 10 = 250 ends the game at once, no bonus', () => {
    const s = position({
      hands: [['1-5', '6-6'], ['0-1']],
      plays: [
        ['5-3', null],
        ['3-1', 'RIGHT'],
      ],
      scores: [240, 0],
    });
    const r = play(s, '1-5', 'RIGHT');
    expect(r.events.map((e) => e.type)).toEqual(['TILE_PLAYED', 'ROUND_ENDED', 'MATCH_FINISHED']);
    expect(r.events[1]).toMatchObject({ result: { end: 'MATCH_WON', awarded: [0, 0], dominoSeat: null } });
    expect(r.state).toMatchObject({ status: 'FINISHED', winner: 0, winningSeat: 0, scores: [250, 0] });
    expect(r.state.round.status).toBe('FINISHED');
  });
});

describe('E21 round5', () => {
  it.each([
    [0, 0],
    [1, 0],
    [2, 0],
    [3, 5],
    [4, 5],
    [7, 5],
    [8, 10],
    [12, 10],
    [13, 15],
    [17, 15],
    [27, 25],
    [28, 30],
  ])('round5(%i) = %i', (n, r) => expect(round5(n)).toBe(r));
});

describe('E22 lead draw', () => {
  it('5-5 beats 6-4 and 0-0', () => expect(bestDraw([t('6-4'), t('5-5'), t('0-0')])).toBe(1));
  it('[engine] 6-3 beats 5-4', () => expect(bestDraw([t('5-4'), t('6-3')])).toBe(1));
});

describe('E23 other scoring systems', () => {
  it.each([
    [15, 8],
    [12, 4],
    [10, 2],
    [9, 3],
    [7, 0],
  ])('fives-and-threes: C %i → %i', (c, p) => expect(playScore(c, 'FIVES_AND_THREES')).toBe(p));
  it.each([
    [30, 60],
    [12, 12],
    [10, 10],
  ])('threes-and-fives: C %i → %i', (c, p) => expect(playScore(c, 'THREES_AND_FIVES')).toBe(p));
  it('fives/5 is not a ScoringSystem of types.ts; FIVES gives 15 and 15/5 = 3', () => expect(playScore(15, 'FIVES') / 5).toBe(3));
});
