/** Worked examples E1–E9 of rules.md: tables of plays with the expected C and play score. */
import { buildBoard, countOf, openEnds } from '../board.js';
import { resolveRules } from '../rules.js';
import { playScore } from '../scoring.js';
import type { End, Rules } from '../types.js';
import { t } from './kit.js';

type Step = [tile: string, end: End | null, count: number, score: number];

function run(steps: Step[], partial: Partial<Rules> = {}): void {
  const rules = resolveRules(partial);
  const plays: { tile: ReturnType<typeof t>; end: End | null }[] = [];
  steps.forEach(([tile, end, count, score], i) => {
    plays.push({ tile: t(tile), end });
    const board = buildBoard(plays, rules.spinner);
    const c = countOf(board, rules);
    expect({ step: i + 1, tile, count: c, score: playScore(c, rules.scoring) }).toEqual({ step: i + 1, tile, count, score });
  });
}

describe('E1 lead tiles', () => {
  it.each([
    ['5-5', 10, 10],
    ['6-4', 10, 10],
    ['3-2', 5, 5],
    ['4-1', 5, 5],
    ['5-0', 5, 5],
    ['6-6', 12, 0],
    ['6-3', 9, 0],
    ['0-0', 0, 0],
  ])('lead %s → C %i, score %i', (tile, count, score) => run([[tile, null, count, score]]));
});

describe('E2 spinner lead', () => {
  const steps: Step[] = [
    ['6-6', null, 12, 0],
    ['6-3', 'LEFT', 15, 15],
    ['6-2', 'RIGHT', 5, 5],
    ['6-5', 'UP', 10, 10],
    ['6-0', 'DOWN', 10, 10],
    ['5-5', 'UP', 15, 15],
  ];
  it('scores the table', () => run(steps));
  it('after step 2 the targets are the free side (6) and the 3-end; no spinner end yet (R11)', () => {
    const board = buildBoard([
      { tile: t('6-6'), end: null },
      { tile: t('6-3'), end: 'LEFT' },
    ]);
    expect(openEnds(board)).toEqual([
      { end: 'LEFT', pips: 3 },
      { end: 'RIGHT', pips: 6 },
    ]);
    expect(() =>
      buildBoard([
        { tile: t('6-6'), end: null },
        { tile: t('6-3'), end: 'LEFT' },
        { tile: t('6-1'), end: 'UP' },
      ]),
    ).toThrow();
  });
});

describe('E3 spinner played into the line, and other doubles', () => {
  it('scores the table', () =>
    run([
      ['3-5', null, 8, 0],
      ['5-5', 'LEFT', 13, 0],
      ['5-2', 'LEFT', 5, 5],
      ['5-0', 'UP', 5, 5],
      ['5-4', 'DOWN', 9, 0],
      ['2-2', 'LEFT', 11, 0],
      ['4-4', 'DOWN', 15, 15],
      ['4-1', 'DOWN', 8, 0],
    ]));
});

describe('E4 BR and WP example', () => {
  it('scores the table', () =>
    run([
      ['2-4', null, 6, 0],
      ['4-4', 'LEFT', 10, 10],
      ['4-3', 'LEFT', 5, 5],
    ]));
});

describe('E5 FH sequence', () => {
  it('scores the table', () =>
    run([
      ['5-5', null, 10, 10],
      ['5-0', 'LEFT', 10, 10],
      ['0-0', 'LEFT', 10, 10],
      ['5-6', 'RIGHT', 6, 0],
      ['0-4', 'LEFT', 10, 10],
    ]));
});

describe('E6 double-blank as spinner', () => {
  it('scores the table', () =>
    run([
      ['5-0', null, 5, 5],
      ['0-0', 'RIGHT', 5, 5],
      ['0-5', 'RIGHT', 10, 10],
    ]));
});

describe('E7 doubles at both ends', () => {
  it('scores the table', () =>
    run([
      ['6-4', null, 10, 10],
      ['6-6', 'LEFT', 16, 0],
      ['4-4', 'RIGHT', 20, 20],
    ]));
});

describe('E8 maximum play, 35', () => {
  it('scores the table', () =>
    run([
      ['2-2', null, 4, 0],
      ['2-6', 'LEFT', 10, 10],
      ['2-5', 'RIGHT', 11, 0],
      ['2-4', 'UP', 15, 15],
      ['2-1', 'DOWN', 16, 0],
      ['6-6', 'LEFT', 22, 0],
      ['5-5', 'RIGHT', 27, 0],
      ['4-4', 'UP', 31, 0],
      ['1-5', 'DOWN', 35, 35],
    ]));
});

describe('E9 spinner-count variant', () => {
  const steps = (last: number, score: number): Step[] => [
    ['4-4', null, 8, 0],
    ['6-4', 'LEFT', 14, 0],
    ['1-4', 'RIGHT', last, score],
  ];
  it('default: the covered spinner counts 0', () => run(steps(7, 0)));
  it('spinnerEndsCount: each empty spinner end counts n', () => run(steps(15, 15), { spinnerEndsCount: true }));
});
