/** R8 matching, R9 doubles, R10 spinner, R11 spinner arms, R12 the count C. */
import { buildBoard, countOf, openEnds } from '../board.js';
import { legalMoves } from '../legal.js';
import { apply } from '../match.js';
import { resolveRules } from '../rules.js';
import type { End, SpinnerMode } from '../types.js';
import { play, position, t } from './kit.js';

const board = (plays: [string, End | null][], mode: SpinnerMode = 'FIRST_DOUBLE') =>
  buildBoard(
    plays.map(([tile, end]) => ({ tile: t(tile), end })),
    mode,
  );

describe('R8 matching', () => {
  const s = position({
    hands: [['3-1', '5-3', '6-6', '4-4'], ['0-0']],
    plays: [
      ['3-5', null],
      ['5-4', 'LEFT'],
    ],
  }); // ends LEFT 4, RIGHT 3
  it.each([
    ['3-1', 'RIGHT', true, 'RIGHT'],
    ['1-3', undefined, true, 'RIGHT'], // either order; one fitting end → the end may be omitted
    ['4-4', 'LEFT', true, 'LEFT'],
  ])('%s on %s is accepted', (tile, end, okay, placed) => {
    const r = apply(s, { type: 'PLAY', seat: 0, tile: t(tile), end: end as End | undefined });
    expect(r.ok).toBe(okay);
    if (r.ok) expect(r.events[0]).toMatchObject({ move: { end: placed } });
  });
  it.each([
    ['3-1', 'LEFT', 'TILE_DOES_NOT_MATCH'],
    ['6-6', undefined, 'TILE_DOES_NOT_MATCH'],
    ['3-1', 'UP', 'NO_SUCH_END'],
    ['3-1', 'SIDEWAYS', 'NO_SUCH_END'],
    ['2-2', 'LEFT', 'TILE_NOT_HELD'],
  ])('%s on %s → %s', (tile, end, code) => {
    const r = apply(s, { type: 'PLAY', seat: 0, tile: t(tile), end: end as End | undefined });
    expect(r).toMatchObject({ ok: false, violation: { code } });
  });
  it('LEFT and RIGHT are separate moves even when they show the same pips', () => {
    const st = position({ hands: [['6-1'], ['0-0']], plays: [['6-6', null]] });
    expect(legalMoves(st, 0)).toEqual([
      { tile: t('6-1'), end: 'LEFT' },
      { tile: t('6-1'), end: 'RIGHT' },
    ]);
    expect(apply(st, { type: 'PLAY', seat: 0, tile: t('6-1') })).toMatchObject({ ok: false, violation: { code: 'END_REQUIRED' } });
  });
  it('the other half becomes the open end', () => {
    expect(play(s, '3-1', 'RIGHT').state.round.board.arms.RIGHT).toEqual([{ tile: t('3-1'), inner: 3, outer: 1 }]);
  });
});

describe('R9 doubles', () => {
  it.each([
    [
      [
        ['6-4', null],
        ['6-6', 'LEFT'],
        ['4-4', 'RIGHT'],
      ],
      20,
    ], // a non-spinner double at an end counts 2n
    [
      [
        ['6-4', null],
        ['6-6', 'LEFT'],
        ['4-4', 'RIGHT'],
        ['4-1', 'RIGHT'],
      ],
      13,
    ], // once covered it counts 0
  ] as [[string, End | null][], number][])('%j → C %i', (plays, c) => expect(countOf(board(plays), resolveRules({}))).toBe(c));
  it('a non-spinner double has one free side only: no UP/DOWN from it', () => {
    const b = board([
      ['6-4', null],
      ['6-6', 'LEFT'],
      ['4-4', 'RIGHT'],
    ]);
    expect(b.spinner?.tile).toEqual(t('6-6'));
    expect(openEnds(b).map((e) => e.end)).toEqual(['LEFT', 'RIGHT']);
  });
});

describe('R10 spinner', () => {
  it.each([
    [[['5-5', null]], { arm: 'LEAD', index: 0 }],
    [
      [
        ['5-3', null],
        ['3-3', 'RIGHT'],
      ],
      { arm: 'RIGHT', index: 0 },
    ],
    [
      [
        ['5-3', null],
        ['5-2', 'LEFT'],
        ['2-2', 'LEFT'],
        ['3-3', 'RIGHT'],
      ],
      { arm: 'LEFT', index: 1 },
    ], // only the first double
  ] as [[string, End | null][], object][])('%j → spinner %j', (plays, where) => expect(board(plays).spinner).toMatchObject(where));
  it('no spinner before any double, and never under spinner NONE', () => {
    expect(
      board([
        ['5-3', null],
        ['3-2', 'RIGHT'],
      ]).spinner,
    ).toBeNull();
    const none = board(
      [
        ['5-5', null],
        ['5-1', 'LEFT'],
        ['5-2', 'RIGHT'],
      ],
      'NONE',
    );
    expect(none.spinner).toBeNull();
    expect(openEnds(none).map((e) => e.end)).toEqual(['LEFT', 'RIGHT']);
    expect(countOf(none, resolveRules({}))).toBe(3); // the covered lead double counts 0
    expect(
      countOf(
        board(
          [
            ['5-5', null],
            ['5-1', 'LEFT'],
          ],
          'NONE',
        ),
        resolveRules({}),
      ),
    ).toBe(11); // 2n while a side is free
  });
});

describe('R11 spinner arms', () => {
  it.each([
    [[['6-6', null]], ['LEFT', 'RIGHT']],
    [
      [
        ['6-6', null],
        ['6-3', 'LEFT'],
      ],
      ['LEFT', 'RIGHT'],
    ],
    [
      [
        ['6-6', null],
        ['6-3', 'LEFT'],
        ['6-2', 'RIGHT'],
      ],
      ['LEFT', 'RIGHT', 'UP', 'DOWN'],
    ],
    [
      [
        ['3-5', null],
        ['5-5', 'LEFT'],
      ],
      ['LEFT', 'RIGHT'],
    ], // played into the line: one side occupied
    [
      [
        ['3-5', null],
        ['5-5', 'LEFT'],
        ['5-2', 'LEFT'],
      ],
      ['LEFT', 'RIGHT', 'UP', 'DOWN'],
    ],
  ] as [[string, End | null][], End[]][])('%j opens %j', (plays, ends) => expect(openEnds(board(plays)).map((e) => e.end)).toEqual(ends));
  it('UP/DOWN show the spinner value and must match it', () => {
    const b = board([
      ['3-5', null],
      ['5-5', 'LEFT'],
      ['5-2', 'LEFT'],
    ]);
    expect(openEnds(b)).toEqual([
      { end: 'LEFT', pips: 2 },
      { end: 'RIGHT', pips: 3 },
      { end: 'UP', pips: 5 },
      { end: 'DOWN', pips: 5 },
    ]);
    const s = position({
      hands: [['6-1', '5-1'], ['0-0']],
      plays: [
        ['6-6', null],
        ['6-3', 'LEFT'],
      ],
    });
    expect(apply(s, { type: 'PLAY', seat: 0, tile: t('6-1'), end: 'UP' })).toMatchObject({ ok: false, violation: { code: 'NO_SUCH_END' } });
  });
});

describe('R12 count C', () => {
  const rules = resolveRules({});
  const variant = resolveRules({ spinnerEndsCount: true });
  it.each([
    ['empty layout', [], 0, 0],
    ['(a) non-double lead', [['6-3', null]], 9, 9],
    [
      '(a) one lead end covered',
      [
        ['6-3', null],
        ['3-1', 'RIGHT'],
      ],
      7,
      7,
    ],
    [
      '(b) outer ends',
      [
        ['6-3', null],
        ['3-1', 'RIGHT'],
        ['6-2', 'LEFT'],
      ],
      3,
      3,
    ],
    [
      '(c) non-spinner double',
      [
        ['6-3', null],
        ['6-6', 'LEFT'],
        ['3-3', 'RIGHT'],
      ],
      18,
      18,
    ],
    ['(d) lone spinner counts 2n', [['4-4', null]], 8, 8],
    [
      '(d) spinner with one side',
      [
        ['4-4', null],
        ['4-1', 'LEFT'],
      ],
      9,
      9,
    ],
    [
      '(d) spinner with both sides counts 0',
      [
        ['4-4', null],
        ['4-1', 'LEFT'],
        ['4-2', 'RIGHT'],
      ],
      3,
      11,
    ],
    [
      '(d) third arm',
      [
        ['4-4', null],
        ['4-1', 'LEFT'],
        ['4-2', 'RIGHT'],
        ['4-0', 'UP'],
      ],
      3,
      7,
    ],
    [
      '(d) fourth arm',
      [
        ['4-4', null],
        ['4-1', 'LEFT'],
        ['4-2', 'RIGHT'],
        ['4-0', 'UP'],
        ['4-6', 'DOWN'],
      ],
      9,
      9,
    ],
  ] as [string, [string, End | null][], number, number][])('%s → C %i (spinnerEndsCount %i)', (_n, plays, c, cv) => {
    expect(countOf(board(plays), rules)).toBe(c);
    expect(countOf(board(plays), variant)).toBe(cv);
  });
});
