/** R9 doubles: what docs/rules.md says the engine does with a double lead that is no spinner. */
import { buildBoard, countOf, openEnds } from '../board.js';
import { resolveRules } from '../rules.js';
import type { End, SpinnerMode } from '../types.js';
import { t } from './kit.js';

const board = (plays: [string, End | null][], mode: SpinnerMode) =>
  buildBoard(
    plays.map(([tile, end]) => ({ tile: t(tile), end })),
    mode,
  );

describe('R9 a double lead under spinner NONE [engine]', () => {
  it('has two free sides (LEFT and RIGHT), counts 2n while either is free, 0 once both are covered', () => {
    const lone = board([['4-4', null]], 'NONE');
    expect(openEnds(lone)).toEqual([
      { end: 'LEFT', pips: 4 },
      { end: 'RIGHT', pips: 4 },
    ]);
    expect(countOf(lone, resolveRules({}))).toBe(8);
    const oneSide = board(
      [
        ['4-4', null],
        ['4-1', 'RIGHT'],
      ],
      'NONE',
    );
    expect(countOf(oneSide, resolveRules({}))).toBe(9); // 2·4 + 1
    const both = board(
      [
        ['4-4', null],
        ['4-1', 'RIGHT'],
        ['4-2', 'LEFT'],
      ],
      'NONE',
    );
    expect(countOf(both, resolveRules({}))).toBe(3); // 2 + 1: the covered double counts 0
    expect(openEnds(both).map((e) => e.end)).toEqual(['LEFT', 'RIGHT']); // never UP/DOWN
  });
});
