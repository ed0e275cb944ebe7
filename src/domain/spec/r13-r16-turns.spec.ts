/** R13 play score, R14 obligation, R15 drawing, R16 passing. */
import { canDraw, legalMoves } from '../legal.js';
import { apply } from '../match.js';
import { playScore } from '../scoring.js';
import { ok, play, position, t } from './kit.js';

describe('R13 play score (FIVES)', () => {
  it.each([
    [0, 0],
    [3, 0],
    [5, 5],
    [9, 0],
    [10, 10],
    [15, 15],
    [20, 20],
    [25, 25],
    [30, 30],
    [35, 35],
    [12, 0],
  ])('C %i → %i', (c, p) => expect(playScore(c, 'FIVES')).toBe(p));
  it('the lead scores too, and the points go on the MoveRecord', () => {
    const r = play(position({ hands: [['6-4', '1-1'], ['0-0']] }), '6-4');
    expect(r.events[0]).toMatchObject({ type: 'TILE_PLAYED', move: { seq: 1, type: 'PLAY', seat: 0, end: null, points: 10, count: 10 } });
    expect(r.state.scores).toEqual([10, 0]);
  });
});

describe('R14 obligation', () => {
  const s = position({ hands: [['3-1', '6-6'], ['0-0']], plays: [['3-5', null]], boneyard: ['2-2', '1-0'] });
  it('a player who can play may not draw', () => {
    expect(canDraw(s, 0)).toBe(false);
    expect(apply(s, { type: 'DRAW', seat: 0 })).toMatchObject({ ok: false, violation: { code: 'MUST_PLAY' } });
  });
  it('[variant] voluntaryDraw: drawing is allowed and the drawn tile is not forced', () => {
    const v = position({ hands: [['3-1', '6-6'], ['0-0']], plays: [['3-5', null]], boneyard: ['5-1', '1-0'], rules: { voluntaryDraw: true } });
    expect(canDraw(v, 0)).toBe(true);
    const r = ok(v, { type: 'DRAW', seat: 0 });
    expect(r.state.round.mustPlay).toBeNull();
    expect(r.state.round.turn).toBe(0);
    expect(legalMoves(r.state, 0).map((m) => `${m.tile.high}-${m.tile.low}`)).toEqual(['3-1', '5-1']);
  });
});

describe('R15 drawing', () => {
  it('draws boneyard[0]; a playable drawn tile must be played at once, alone', () => {
    const s = position({ hands: [['6-6', '2-1'], ['0-0']], plays: [['3-5', null]], boneyard: ['5-4', '0-1'] });
    expect(canDraw(s, 0)).toBe(true);
    const r = ok(s, { type: 'DRAW', seat: 0 });
    expect(r.events).toEqual([
      { type: 'TILE_DRAWN', move: { seq: 2, round: 1, seat: 0, type: 'DRAW', tile: t('5-4'), end: null, points: 0, count: null } },
    ]);
    expect(r.state.round.mustPlay).toEqual(t('5-4'));
    expect(legalMoves(r.state, 0)).toEqual([{ tile: t('5-4'), end: 'LEFT' }]);
    expect(canDraw(r.state, 0)).toBe(false);
    expect(apply(r.state, { type: 'DRAW', seat: 0 })).toMatchObject({ ok: false, violation: { code: 'MUST_PLAY_DRAWN_TILE' } });
    const p = play(r.state, '5-4', 'LEFT');
    expect(p.events[0]).toMatchObject({ move: { count: 7, points: 0 } });
    expect(p.state.round.mustPlay).toBeNull();
    expect(p.state.round.turn).toBe(1);
  });
  it('a drawn tile that fits two ends still needs an end', () => {
    const s = position({ hands: [['6-6'], ['0-0']], plays: [['3-5', null]], boneyard: ['5-3'] });
    const r = ok(s, { type: 'DRAW', seat: 0 });
    expect(apply(r.state, { type: 'PLAY', seat: 0, tile: t('5-3') })).toMatchObject({ ok: false, violation: { code: 'END_REQUIRED' } });
    expect(apply(r.state, { type: 'PLAY', seat: 0, tile: t('5-3'), end: 'RIGHT' }).ok).toBe(true);
  });
  it.each([
    [0, ['2-2', '1-1'], true],
    [2, ['2-2', '1-1'], false],
    [1, ['2-2', '1-1'], true],
  ])('[variant] reserve %i with %j: can draw = %s', (reserve, boneyard, allowed) => {
    const s = position({ hands: [['6-6'], ['0-0']], plays: [['3-5', null]], boneyard, rules: { reserve } });
    expect(canDraw(s, 0)).toBe(allowed);
    if (!allowed) expect(apply(s, { type: 'DRAW', seat: 0 })).toMatchObject({ ok: false, violation: { code: 'BONEYARD_EMPTY' } });
  });
});

describe('R16 pass', () => {
  it('a seat that can neither play nor draw passes automatically; a play resets the count', () => {
    const s = position({ seats: 3, hands: [['5-0', '6-6'], ['4-4'], ['0-2', '3-3']], plays: [['5-5', null]] });
    const r = play(s, '5-0', 'LEFT');
    expect(r.events.map((e) => e.type)).toEqual(['TILE_PLAYED', 'TURN_PASSED']);
    expect(r.events[1]).toMatchObject({ move: { seq: 3, seat: 1, type: 'PASS', tile: null, end: null, points: 0, count: null } });
    expect(r.state.round.turn).toBe(2);
    expect(r.state.round.passesInRow).toBe(1);
    // The play resets the count: three more passes (not two) are needed to block 3 seats.
    const after = play(r.state, '0-2', 'LEFT');
    expect(after.events.filter((e) => e.type === 'TURN_PASSED')).toHaveLength(3);
    expect(after.events.find((e) => e.type === 'ROUND_ENDED')).toMatchObject({ result: { end: 'BLOCKED' } });
  });
  it('nobody passes while a draw is possible', () => {
    const s = position({ hands: [['5-0', '6-6'], ['4-4']], plays: [['5-5', null]], boneyard: ['1-1'] });
    const r = play(s, '5-0', 'LEFT');
    expect(r.events.map((e) => e.type)).toEqual(['TILE_PLAYED']);
    expect(canDraw(r.state, 1)).toBe(true);
  });
});
