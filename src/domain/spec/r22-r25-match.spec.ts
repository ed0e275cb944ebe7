/** R22 end of game, R23 next hand's leader, R24 next game's leader (winningSeat), R25 scoring systems. */
import { apply, newMatch } from '../match.js';
import { playScore } from '../scoring.js';
import type { ScoringSystem } from '../types.js';
import { config, lotOf, ok, play, position, randomPolicy } from './kit.js';

describe('R22 end of game', () => {
  it('a play reaching the target ends the match at once (MATCH_WON, no bonus)', () => {
    const s = position({ hands: [['6-4', '1-1'], ['2-2']], scores: [245, 0] });
    const r = play(s, '6-4');
    expect(r.events.map((e) => e.type)).toEqual(['TILE_PLAYED', 'ROUND_ENDED', 'MATCH_FINISHED']);
    expect(r.events[2]).toEqual({ type: 'MATCH_FINISHED', winner: 0, scores: [255, 0] });
    expect(r.state).toMatchObject({ status: 'FINISHED', winner: 0, winningSeat: 0 });
    expect(apply(r.state, { type: 'PLAY', seat: 1, tile: { high: 2, low: 2 } })).toMatchObject({ ok: false, violation: { code: 'MATCH_OVER' } });
  });
  it('a domino bonus reaching the target wins after the round', () => {
    const s = position({ hands: [['6-3'], ['6-6', '5-5']], plays: [['3-2', null]], scores: [230, 0] });
    const r = play(s, '6-3', 'LEFT'); // C 6+2 = 8 → 0; bonus round5(22) = 20
    expect(r.events.map((e) => e.type)).toEqual(['TILE_PLAYED', 'ROUND_ENDED', 'MATCH_FINISHED']);
    expect(r.state).toMatchObject({ status: 'FINISHED', winner: 0, winningSeat: 0, scores: [250, 0] });
  });
  it('[engine] a block split lifting two tied sides to the target together plays another round', () => {
    // rules.md says only one side scores at a time; R20's split is the exception. Seats 0 and 1 tie
    // for lowest (6 pips each) and split seat 2's round5(22) = 20: 10 each, 250 both. Neither is
    // ahead, so (as with playOut's tie) another round decides: the next score that leaves a side
    // at or above the target wins by R22 as usual.
    const s = position({ seats: 3, hands: [['0-0', '1-1', '2-2'], ['3-3'], ['6-6', '5-5']], scores: [240, 240, 0] });
    const r = play(s, '0-0');
    expect(r.events.map((e) => e.type)).toEqual(['TILE_PLAYED', 'TURN_PASSED', 'TURN_PASSED', 'TURN_PASSED', 'ROUND_ENDED', 'ROUND_STARTED']);
    expect(r.state).toMatchObject({ status: 'IN_PROGRESS', scores: [250, 250, 0], winner: null });
    expect(r.state.round.number).toBe(2);
  });
  it('[engine] after that split, a third side reaching the target from below does not win', () => {
    // Seats 0 and 1 stand at 255 after a split; seat 2 leads 5-5 (10) to 250, level with nobody
    // and below both: the highest score wins, so play goes on; its next score, which puts it
    // ahead of both, wins.
    const s = position({
      seats: 3,
      hands: [
        ['6-0', '1-1'],
        ['2-0', '0-0'],
        ['5-5', '5-0', '3-3'],
      ],
      turn: 2,
      scores: [255, 255, 240],
    });
    const r = play(s, '5-5');
    expect(r.state).toMatchObject({ status: 'IN_PROGRESS', scores: [255, 255, 250], winner: null });
    expect(r.events.map((e) => e.type)).toEqual(['TILE_PLAYED', 'TURN_PASSED', 'TURN_PASSED']);
    const next = play(r.state, '5-0', 'LEFT'); // 5-5 + 0 = 10: 260, ahead of both
    expect(next.state).toMatchObject({ status: 'FINISHED', scores: [255, 255, 260], winner: 2, winningSeat: 2 });
  });
  it('[engine] after that split, the next score that puts a side ahead of both wins', () => {
    const s = position({
      seats: 3,
      hands: [
        ['6-0', '1-1'],
        ['2-0', '0-0'],
        ['5-5', '3-3'],
      ],
      turn: 2,
      scores: [250, 250, 245],
    });
    const r = play(s, '5-5'); // 10: 255 against 250 and 250
    expect(r.state).toMatchObject({ status: 'FINISHED', scores: [250, 250, 255], winner: 2, winningSeat: 2 });
  });
  it('[variant] playOut: the hand is played out; the highest score ≥ target wins', () => {
    const s = position({
      hands: [
        ['6-4', '1-1'],
        ['4-4', '0-0'],
      ],
      scores: [245, 0],
      rules: { playOut: true },
    });
    const r = play(s, '6-4');
    expect(r.state.status).toBe('IN_PROGRESS');
    expect(r.state.scores).toEqual([255, 0]);
    const r2 = play(r.state, '4-4', 'RIGHT'); // 6 + 8 = 14 → 0; then seat 0 (1-1) and seat 1 (0-0) are stuck
    expect(r2.events.map((e) => e.type)).toEqual(['TILE_PLAYED', 'TURN_PASSED', 'TURN_PASSED', 'ROUND_ENDED', 'MATCH_FINISHED']);
    expect(r2.state).toMatchObject({ status: 'FINISHED', winner: 0, winningSeat: 0 });
  });
  it('[variant] playOut: a tie for highest plays another round', () => {
    const s = position({
      hands: [
        ['6-4', '1-1'],
        ['4-4', '0-0'],
      ],
      scores: [245, 255],
      rules: { playOut: true },
    });
    const r = play(play(s, '6-4').state, '4-4', 'RIGHT');
    expect(r.events.map((e) => e.type)).toContain('ROUND_STARTED');
    expect(r.state.status).toBe('IN_PROGRESS');
  });
});

describe('R23 next hand’s leader', () => {
  it('the domino seat leads the next hand with any tile', () => {
    const s = position({ seats: 3, hands: [['1-1'], ['1-4'], ['0-0']], plays: [['6-4', null]], turn: 1, rules: { leadRule: 'HIGHEST_DOUBLE' } });
    const r = play(s, '1-4', 'RIGHT');
    expect(r.state.round).toMatchObject({ number: 2, starter: 1, turn: 1, mustPlay: null });
    expect(r.events[r.events.length - 1]).toEqual({ type: 'ROUND_STARTED', round: 2, starter: 1 });
  });
  it('after a block the leader is chosen again by lot', () => {
    const s = position({ hands: [['0-0', '6-5'], ['6-6']] });
    const r = play(s, '0-0');
    expect(r.state.round.number).toBe(2);
    expect(r.state.round.starter).toBe(lotOf(r.state.config.deal, 2, 2, r.state.config.rules));
  });
});

describe('R24 winning seat', () => {
  it('in a partnership, the seat that made the winning score', () => {
    const s = position({ seats: 4, partnerships: true, hands: [['6-6'], ['1-1'], ['6-4', '3-3'], ['2-2']], scores: [240, 0], turn: 2 });
    const r = play(s, '6-4');
    expect(r.state).toMatchObject({ status: 'FINISHED', winner: 0, winningSeat: 2 });
  });
  it('a whole match ends with a winner and winning seat', () => {
    for (const [seats, partnerships] of [
      [2, false],
      [3, false],
      [4, true],
    ] as const) {
      let state = newMatch(config(seats, partnerships, { targetScore: 60 }, 9)).state;
      const policy = randomPolicy(seats);
      for (let i = 0; i < 5000 && state.status === 'IN_PROGRESS'; i++) state = ok(state, policy(state)).state;
      expect(state.status).toBe('FINISHED');
      expect(state.teams[state.winner!]).toContain(state.winningSeat);
      expect(state.scores[state.winner!]).toBe(Math.max(...state.scores));
      expect(state.scores[state.winner!]).toBeGreaterThanOrEqual(60);
      expect(state.round.status).toBe('FINISHED');
    }
  });
});

describe('R25 scoring systems', () => {
  const table: [number, number, number, number][] = [
    // C, FIVES, FIVES_AND_THREES, THREES_AND_FIVES
    [0, 0, 0, 0],
    [3, 0, 1, 3],
    [5, 5, 1, 5],
    [6, 0, 2, 6],
    [7, 0, 0, 0],
    [9, 0, 3, 9],
    [10, 10, 2, 10],
    [12, 0, 4, 12],
    [15, 15, 8, 30],
    [20, 20, 4, 20],
    [30, 30, 16, 60],
    [35, 35, 7, 35],
  ];
  it.each(table)('C %i → fives %i, fives-and-threes %i, threes-and-fives %i', (c, f, ft, tf) => {
    const systems: ScoringSystem[] = ['FIVES', 'FIVES_AND_THREES', 'THREES_AND_FIVES'];
    expect(systems.map((s) => playScore(c, s))).toEqual([f, ft, tf]);
  });
  it('the rules variant drives apply()', () => {
    const s = position({ hands: [['6-6', '1-1'], ['2-2']], rules: { scoring: 'FIVES_AND_THREES' } });
    expect(play(s, '6-6').events[0]).toMatchObject({ move: { count: 12, points: 4 } });
  });
});
