/** viewFor redaction, replay from stored moves, and the bots. */
import { chooseBotAction } from '../bots/index.js';
import { apply, newMatch } from '../match.js';
import { actionsFromMoves, replayMatch } from '../replay.js';
import { viewFor } from '../view.js';
import type { MatchState, MoveRecord } from '../types.js';
import { config, ok, play, position, t } from './kit.js';

describe('viewFor', () => {
  const s = position({
    hands: [
      ['6-6', '2-1'],
      ['0-0', '3-3'],
    ],
    plays: [['3-5', null]],
    boneyard: ['5-4', '0-1', '1-1'],
  });
  const drawn = ok(s, { type: 'DRAW', seat: 0 }).state;
  it('a seat sees its own hand, its own draws and its legal moves', () => {
    const v = viewFor(drawn, 0);
    expect(v.hand).toEqual(drawn.round.hands[0]);
    expect(v.round.moves[1].tile).toEqual(t('5-4'));
    expect(v.mustPlay).toEqual(t('5-4'));
    expect(v.legalMoves).toEqual([{ tile: t('5-4'), end: 'LEFT' }]);
    expect(v.canDraw).toBe(false);
    expect(v.round).toMatchObject({ boneyardCount: 2, count: 8, spinner: null, result: null });
    expect(v.round.openEnds).toEqual([
      { end: 'LEFT', pips: 5 },
      { end: 'RIGHT', pips: 3 },
    ]);
    expect(v.handCounts).toEqual([3, 2]);
  });
  it('others and spectators see no drawn tile, no hand, no forced tile', () => {
    for (const viewer of [1, 'spectator'] as const) {
      const v = viewFor(drawn, viewer);
      expect(v.round.moves[1]).toMatchObject({ type: 'DRAW', seat: 0, tile: null });
      expect(v.mustPlay).toBeNull();
      expect(v.legalMoves).toEqual([]);
      expect(v.hand).toEqual(viewer === 1 ? drawn.round.hands[1] : null);
    }
    expect(JSON.stringify(viewFor(drawn, 'spectator'))).not.toMatch(/seed|boneyard"/);
  });
  it('turn is null once the match is over and the last round’s result shows the hands', () => {
    const over = play(position({ hands: [['6-4', '1-1'], ['2-2']], scores: [245, 0] }), '6-4').state;
    const v = viewFor(over, 'spectator');
    expect(v.turn).toBeNull();
    expect(v.status).toBe('FINISHED');
    expect(v.winner).toBe(0);
    expect(v.round.result?.hands).toEqual([[t('1-1')], [t('2-2')]]);
  });
  it('once the match ends inside a round, everyone sees every draw in it', () => {
    const finished = { ...drawn, status: 'FINISHED' as const };
    for (const viewer of [1, 'spectator'] as const) expect(viewFor(finished, viewer).round.moves[1].tile).toEqual(t('5-4'));
  });
  it('UP/DOWN appear once open, and the spinner tile is shown', () => {
    const sp = position({
      hands: [['6-1'], ['0-0']],
      plays: [
        ['6-6', null],
        ['6-3', 'LEFT'],
        ['6-2', 'RIGHT'],
      ],
    });
    const v = viewFor(sp, 0);
    expect(v.round.openEnds.map((e) => e.end)).toEqual(['LEFT', 'RIGHT', 'UP', 'DOWN']);
    expect(v.round.spinner).toEqual(t('6-6'));
    expect(v.round.count).toBe(5);
  });
});

describe('replay from stored moves', () => {
  it('the service’s move log (PLAY/DRAW records) replays to the same state', () => {
    const cfg = config(2, false, { targetScore: 100 }, 31337);
    let state: MatchState = newMatch(cfg).state;
    const log: MoveRecord[] = [];
    for (let i = 0; state.status === 'IN_PROGRESS' && i < 3000; i++) {
      const action = chooseBotAction(viewFor(state, state.round.turn), 'greedy', i);
      const res = apply(state, action);
      if (!res.ok) throw new Error(res.violation.code);
      for (const e of res.events) if ('move' in e) log.push(e.move);
      state = res.state;
    }
    expect(state.status).toBe('FINISHED');
    expect(log.map((m) => m.seq)).toEqual(log.map((_, i) => i + 1));
    expect(replayMatch(cfg, actionsFromMoves(log))).toStrictEqual(state);
  });
  it('a refused action makes replayMatch throw', () => {
    expect(() => replayMatch(config(2), [{ type: 'DRAW', seat: 5 }])).toThrow(/NOT_YOUR_TURN/);
  });
});

describe('bots', () => {
  it('random: a legal move, reproducible from its seed', () => {
    const { state } = newMatch(config(3, false, {}, 5));
    const v = viewFor(state, state.round.turn);
    const a = chooseBotAction(v, 'random', 1);
    expect(a).toEqual(chooseBotAction(v, 'random', 1));
    expect(apply(state, a).ok).toBe(true);
  });
  it('random and greedy draw when they have no play', () => {
    const s = position({ hands: [['1-1', '0-0'], ['2-2']], plays: [['6-5', null]], boneyard: ['4-4'] });
    for (const strategy of ['random', 'greedy'] as const) expect(chooseBotAction(viewFor(s, 0), strategy, 0)).toEqual({ type: 'DRAW', seat: 0 });
  });
  it('greedy takes the most points now', () => {
    // 6-4 lead (LEFT 6, RIGHT 4). 4-1 → 6+1 = 7 → 0; 6-3 → 3+4 = 7; 4-4 → 6+8 = 14; 6-0 on LEFT → 0+4 = 4; 4-5 → 6+5 = 11; 6-5 → 5+4 = 9; 4-3 RIGHT → 9. 6-1 LEFT → 1+4 = 5 → 5.
    const s = position({ hands: [['4-1', '6-1', '4-4'], ['0-0']], plays: [['6-4', null]] });
    expect(chooseBotAction(viewFor(s, 0), 'greedy', 0)).toEqual({ type: 'PLAY', seat: 0, tile: t('6-1'), end: 'LEFT' });
  });
  it('greedy on a tie keeps an answer, then sheds the heaviest tile', () => {
    // Lead 3-2 (LEFT 3, RIGHT 2). All plays score 0. 3-6 → ends 6, 2; 2-6 → ends 3, 6; 2-0 → 3, 0.
    // After 3-6 the hand {2-6, 2-0} still answers (2); after 2-6 the hand {3-6, 2-0} answers (3/6); heaviest is 3-6 (9).
    const s = position({ hands: [['3-6', '2-6', '2-0'], ['1-1']], plays: [['3-2', null]] });
    expect(chooseBotAction(viewFor(s, 0), 'greedy', 0)).toEqual({ type: 'PLAY', seat: 0, tile: t('6-3'), end: 'LEFT' });
  });
  it('a whole match between greedy and random bots finishes', () => {
    let state = newMatch(config(4, true, { targetScore: 150 }, 77)).state;
    for (let i = 0; state.status === 'IN_PROGRESS' && i < 5000; i++) {
      const seat = state.round.turn;
      state = ok(state, chooseBotAction(viewFor(state, seat), seat % 2 === 0 ? 'greedy' : 'random', i)).state;
    }
    expect(state.status).toBe('FINISHED');
  });
});
