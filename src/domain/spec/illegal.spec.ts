/** Illegal actions come back as typed violations and leave the state untouched. */
import { apply } from '../match.js';
import type { Action, MatchState, ViolationCode } from '../types.js';
import { play, position, t } from './kit.js';

const live = position({
  hands: [
    ['3-1', '6-6'],
    ['2-2', '0-0'],
  ],
  plays: [['3-5', null]],
  boneyard: ['1-1', '4-0'],
});
const mustDraw = position({ hands: [['6-6', '2-1'], ['0-0']], plays: [['3-5', null]], boneyard: ['5-4', '0-1'] });
const noBone = position({
  hands: [
    ['6-6', '2-1'],
    ['0-0', '3-3'],
  ],
  plays: [['3-5', null]],
  boneyard: [],
});
const over = play(position({ hands: [['6-4', '1-1'], ['2-2']], scores: [245, 0] }), '6-4').state;
const roundOver: MatchState = { ...live, round: { ...live.round, status: 'FINISHED' } };

const cases: [string, MatchState, Action, ViolationCode][] = [
  ['not your turn (play)', live, { type: 'PLAY', seat: 1, tile: t('2-2'), end: 'LEFT' }, 'NOT_YOUR_TURN'],
  ['not your turn (draw)', live, { type: 'DRAW', seat: 1 }, 'NOT_YOUR_TURN'],
  ['not a seat', live, { type: 'DRAW', seat: 9 }, 'NOT_YOUR_TURN'],
  ['pips out of range', live, { type: 'PLAY', seat: 0, tile: { high: 7, low: 1 }, end: 'LEFT' }, 'INVALID_TILE'],
  ['pips not integers', live, { type: 'PLAY', seat: 0, tile: { high: 1.5, low: 1 }, end: 'LEFT' }, 'INVALID_TILE'],
  ['no such tile, out of turn: the tile is judged first', live, { type: 'PLAY', seat: 1, tile: { high: 9, low: 9 }, end: 'LEFT' }, 'INVALID_TILE'],
  ['tile not held', live, { type: 'PLAY', seat: 0, tile: t('5-0'), end: 'LEFT' }, 'TILE_NOT_HELD'],
  ['end not open', live, { type: 'PLAY', seat: 0, tile: t('3-1'), end: 'DOWN' }, 'NO_SUCH_END'],
  ['tile not matching that end', live, { type: 'PLAY', seat: 0, tile: t('3-1'), end: 'LEFT' }, 'TILE_DOES_NOT_MATCH'],
  ['tile matching no end', live, { type: 'PLAY', seat: 0, tile: t('6-6') }, 'TILE_DOES_NOT_MATCH'],
  ['draw while holding a play', live, { type: 'DRAW', seat: 0 }, 'MUST_PLAY'],
  ['draw from an empty boneyard', noBone, { type: 'DRAW', seat: 0 }, 'BONEYARD_EMPTY'],
  ['move after the match ended', over, { type: 'PLAY', seat: 1, tile: t('2-2') }, 'MATCH_OVER'],
  ['move after the round ended', roundOver, { type: 'PLAY', seat: 0, tile: t('3-1'), end: 'RIGHT' }, 'ROUND_OVER'],
];

describe('illegal actions', () => {
  it.each(cases)('%s → %s', (_name, state, action, code) => {
    const before = structuredClone(state);
    const res = apply(state, action);
    expect(res).toMatchObject({ ok: false, violation: { code } });
    // Every refusal cites the rule it applies, in its message and as a field.
    if (!res.ok) expect(res.violation.message).toMatch(new RegExp(`\\(${res.violation.rule}\\)$`));
    if (!res.ok) expect(res.violation.rule).toMatch(/^R\d+$/);
    expect(state).toStrictEqual(before);
  });
  it('a forced drawn tile: anything else is MUST_PLAY_DRAWN_TILE', () => {
    const drawn = apply(mustDraw, { type: 'DRAW', seat: 0 });
    if (!drawn.ok) throw new Error('draw refused');
    const before = structuredClone(drawn.state);
    expect(apply(drawn.state, { type: 'DRAW', seat: 0 })).toMatchObject({ ok: false, violation: { code: 'MUST_PLAY_DRAWN_TILE' } });
    expect(drawn.state).toStrictEqual(before);
  });
  it('a legal action never mutates its input either', () => {
    const before = structuredClone(live);
    expect(apply(live, { type: 'PLAY', seat: 0, tile: t('1-3'), end: 'RIGHT' }).ok).toBe(true);
    expect(live).toStrictEqual(before);
  });
});
