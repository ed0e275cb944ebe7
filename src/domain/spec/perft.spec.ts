/**
 * Exact legal-move counts (chess.js-style perft): fixed positions, and action-tree sizes from
 * fixed seeds' deals, hard-coded once and cross-checked against the brute-force oracle.
 */
import { canDraw, legalMoves } from '../legal.js';
import { newMatch } from '../match.js';
import { config, oracleActions, perft, position } from './kit.js';

describe('legal-move counts from fixed positions', () => {
  it.each([
    ['lead: every tile held', 4, false, { hands: [['6-6', '5-4', '3-1', '0-0'], ['2-2']] }],
    ['two ends, LEFT and RIGHT counted separately', 4, false, { hands: [['6-1', '6-2', '1-1'], ['0-0']], plays: [['6-6', null]] }],
    [
      'spinner with one side: no UP/DOWN',
      2,
      false,
      {
        hands: [['6-1', '3-2', '4-4'], ['0-0']],
        plays: [
          ['6-6', null],
          ['6-3', 'LEFT'],
        ],
      },
    ],
    [
      'spinner open on four arms',
      5,
      false,
      {
        hands: [['6-1', '6-0', '2-5'], ['0-0']],
        plays: [
          ['6-6', null],
          ['6-3', 'LEFT'],
          ['6-2', 'RIGHT'],
        ],
      },
    ],
    ['no play, boneyard: draw only', 0, true, { hands: [['1-1', '0-0'], ['2-2']], plays: [['6-5', null]], boneyard: ['4-4'] }],
    [
      'spinner NONE: no UP/DOWN ever',
      0,
      false,
      {
        hands: [['6-1', '6-0'], ['0-0']],
        plays: [
          ['6-6', null],
          ['6-3', 'LEFT'],
          ['6-2', 'RIGHT'],
        ],
        rules: { spinner: 'NONE' as const },
      },
    ],
  ])('%s → %i moves (draw: %s)', (_name, n, draw, pos) => {
    const s = position(pos as never);
    expect(legalMoves(s, 0)).toHaveLength(n);
    expect(canDraw(s, 0)).toBe(draw);
    expect(legalMoves(s, 1)).toEqual([]);
  });
});

describe('perft from fixed deals', () => {
  const cases: [string, number, boolean, number, number[]][] = [
    // name, seats, partnerships, kit deal number, nodes at depth 1..4: computed once on the fair
    // deal of testDeal(n) (docs/fair-deals.md) and confirmed by the oracle below
    ['2 players', 2, false, 2024, [7, 22, 66, 207]],
    ['3 players', 3, false, 7, [7, 22, 70, 213]],
    ['4 players, partnerships', 4, true, 99, [7, 20, 71, 310]],
  ];
  it.each(cases)('%s (seats %i, partnerships %s, deal %i): %j', (_n, seats, partnerships, seed, expected) => {
    const { state } = newMatch(config(seats, partnerships, {}, seed));
    const counts = [1, 2, 3, 4].map((d) => perft(state, d));
    expect(counts).toEqual(expected);
    // The oracle (every tile × every end through apply) must agree.
    expect([1, 2, 3, 4].map((d) => perft(state, d, oracleActions))).toEqual(expected);
  });
});
