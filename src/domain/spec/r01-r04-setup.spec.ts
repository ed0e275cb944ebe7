/** R1 set, R2 sides, R3 target, R4 deal; rule defaults and setup validation. */
import { newMatch, teamsFor } from '../match.js';
import { dealRound } from '../round.js';
import { DEFAULT_RULES, resolveRules, validateSetup } from '../rules.js';
import { ALL_TILES, normalizeTile, pipCount, sameTile, tileKey } from '../tiles.js';
import { config, play, position, testDeal } from './kit.js';

describe('R1 set', () => {
  it('has 28 distinct tiles 0-0 … 6-6 in a fixed order, normalised high ≥ low', () => {
    expect(ALL_TILES).toHaveLength(28);
    expect(new Set(ALL_TILES.map(tileKey)).size).toBe(28);
    expect(ALL_TILES.every((x) => x.high >= x.low && x.high <= 6 && x.low >= 0)).toBe(true);
    expect(tileKey(ALL_TILES[0])).toBe('0-0');
    expect(tileKey(ALL_TILES[27])).toBe('6-6');
  });
  it.each([
    [{ high: 2, low: 5 }, '5-2'],
    [{ high: 5, low: 2 }, '5-2'],
    [{ high: 0, low: 0 }, '0-0'],
  ])('normalizeTile(%j) = %s', (raw, key) => expect(tileKey(normalizeTile(raw))).toBe(key));
  it('pip value is a+b, 0-0 counts 0; the full set has 168 pips', () => {
    expect(pipCount([normalizeTile({ high: 0, low: 0 })])).toBe(0);
    expect(pipCount([normalizeTile({ high: 6, low: 3 })])).toBe(9);
    expect(pipCount(ALL_TILES)).toBe(168);
    expect(sameTile({ high: 3, low: 1 }, normalizeTile({ high: 1, low: 3 }))).toBe(true);
  });
});

describe('R2 sides', () => {
  it.each([
    [2, false, [[0], [1]]],
    [3, false, [[0], [1], [2]]],
    [4, false, [[0], [1], [2], [3]]],
    [
      4,
      true,
      [
        [0, 2],
        [1, 3],
      ],
    ],
  ])('%i seats, partnerships %s → teams %j', (seats, partnerships, teams) => {
    expect(teamsFor(seats, partnerships)).toEqual(teams);
    const { state } = newMatch(config(seats, partnerships));
    expect(state.teams).toEqual(teams);
    expect(state.scores).toEqual(teams.map(() => 0));
  });
  it('a partner’s points go to the side', () => {
    const s = position({ seats: 4, partnerships: true, hands: [['6-6'], ['5-0', '1-1'], ['0-2'], ['3-3']], plays: [['5-5', null]], turn: 1 });
    expect(play(s, '5-0', 'LEFT').state.scores).toEqual([0, 10]);
  });
  it.each([
    [5, false, 'seats must be 2, 3 or 4 (got 5)'],
    [1, false, 'seats must be 2, 3 or 4 (got 1)'],
    [3, true, 'partnerships need exactly 4 seats'],
  ])('validateSetup(%i, %s) reports "%s"', (seats, p, msg) => expect(validateSetup(seats, p, DEFAULT_RULES)).toContain(msg));
});

describe('R3 target', () => {
  it('defaults to 250 and every default of rules.md', () => {
    expect(resolveRules(undefined)).toEqual({
      targetScore: 250,
      handSize: 7,
      spinner: 'FIRST_DOUBLE',
      spinnerEndsCount: false,
      voluntaryDraw: false,
      reserve: 0,
      firstLeader: 'DRAW',
      leadRule: 'ANY',
      dominoRounding: 'AGGREGATE',
      blockedBonus: 'OPPONENTS_TOTAL',
      playOut: false,
      scoring: 'FIVES',
    });
    expect(resolveRules(null)).toEqual(DEFAULT_RULES);
    expect(resolveRules({ targetScore: 100, handSize: null } as never)).toMatchObject({ targetScore: 100, handSize: 7 });
  });
  it.each([0, 10001, 12.5])('rejects targetScore %s', (targetScore) => {
    expect(validateSetup(2, false, resolveRules({ targetScore }))).toContainEqual(
      expect.stringContaining('targetScore must be an integer from 1 to 10000'),
    );
  });
});

describe('R4 deal', () => {
  it.each([
    [2, 14],
    [3, 7],
    [4, 0],
  ])('%i players get 7 tiles each, boneyard %i', (seats, bone) => {
    const r = dealRound(1, testDeal(123, seats), seats, DEFAULT_RULES, 0);
    expect(r.hands.map((h) => h.length)).toEqual(Array(seats).fill(7));
    expect(r.boneyard).toHaveLength(bone);
  });
  it('is deterministic per deal source; rounds of a match deal differently', () => {
    const deal = testDeal(99, 2);
    expect(dealRound(1, deal, 2, DEFAULT_RULES, 0)).toEqual(dealRound(1, testDeal(99, 2), 2, DEFAULT_RULES, 0));
    expect(dealRound(1, deal, 2, DEFAULT_RULES, 0).hands).not.toEqual(dealRound(1, testDeal(100, 2), 2, DEFAULT_RULES, 0).hands);
    expect(dealRound(1, deal, 2, DEFAULT_RULES, 0).hands).not.toEqual(dealRound(2, deal, 2, DEFAULT_RULES, 0).hands);
  });
  it('variant hand sizes', () => {
    const r = dealRound(1, testDeal(1, 3), 3, resolveRules({ handSize: 5 }), 0);
    expect(r.hands.map((h) => h.length)).toEqual([5, 5, 5]);
    expect(r.boneyard).toHaveLength(13);
  });
  it.each([
    [4, { handSize: 10 }, 'handSize 10 × 4 seats needs 40 tiles; the set has 28'],
    [4, { reserve: 2 }, 'reserve 2 exceeds the boneyard (0 tiles with 4 seats × 7)'],
    [2, { handSize: 0 }, 'handSize must be an integer from 1 to 14 (got 0)'],
    [2, { handSize: 15 }, 'handSize must be an integer from 1 to 14 (got 15)'],
    [2, { reserve: -1 }, 'reserve must be a non-negative integer (got -1)'],
    // Too many to keep back says how many there are to keep, not that the number is negative.
    [2, { reserve: 30 }, 'reserve 30 exceeds the boneyard (14 tiles with 2 seats × 7)'],
    [2, { handSize: 15, reserve: 30 }, 'reserve 30 exceeds the set (28 tiles)'],
  ])('validateSetup(%i, %j) reports the problem', (seats, rules, msg) => {
    expect(validateSetup(seats, false, resolveRules(rules))).toContain(msg);
  });
  it('accepts every default table and rejects an unknown enum', () => {
    for (const [s, p] of [
      [2, false],
      [3, false],
      [4, false],
      [4, true],
    ] as const)
      expect(validateSetup(s, p, DEFAULT_RULES)).toEqual([]);
    expect(validateSetup(2, false, { ...DEFAULT_RULES, scoring: 'NOPE' as never })[0]).toMatch(/^scoring must be one of/);
    expect(() => newMatch(config(5))).toThrow(/seats must be 2, 3 or 4/);
  });
});
