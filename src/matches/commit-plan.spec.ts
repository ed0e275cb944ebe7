import { apply, legalMoves, newMatch, resolveRules } from '../domain/index.js';
import { planFromEngine } from './commit-plan.js';
import { testDeal } from '../domain/spec/kit.js';
import { loadedMatchOf } from './spec/loaded-matches.js';

describe('planFromEngine', () => {
  it('turns every engine move into a stored move and an event, in order', () => {
    const { state } = newMatch({ seats: 2, partnerships: false, rules: resolveRules({}), deal: testDeal(42, 2) });
    const seat = state.round.turn;
    const move = legalMoves(state, seat)[0];
    const res = apply(state, { type: 'PLAY', seat, tile: move.tile, end: move.end });
    if (!res.ok) throw new Error(res.violation.code);
    const plan = planFromEngine(loadedMatchOf(state, 3, 5), res.state, res.events, { clientMoveId: 'x', playerId: 'p' });
    expect(plan.expectedVersion).toBe(3);
    expect(plan.lastEventSeq).toBe(5);
    expect(plan.moves.map((m) => m.seq)).toEqual(res.events.filter((e) => 'move' in e).map((e) => ('move' in e ? e.move.seq : 0)));
    expect(plan.events[0]).toEqual({ type: 'TILE_PLAYED', moveSeq: 1 });
    expect(plan.status).toBe('IN_PROGRESS');
    expect(plan.clientMoveId).toBe('x');
    expect(plan.scores === undefined).toBe(plan.moves.every((m) => m.points === 0));
  });

  it('records a round end and the next round start when a round finishes', () => {
    let { state } = newMatch({ seats: 2, partnerships: false, rules: resolveRules({ targetScore: 10_000 }), deal: testDeal(7, 2) });
    for (let i = 0; i < 500; i++) {
      const seat = state.round.turn;
      const moves = legalMoves(state, seat);
      const res = apply(state, moves.length ? { type: 'PLAY', seat, tile: moves[0].tile, end: moves[0].end } : { type: 'DRAW', seat });
      if (!res.ok) throw new Error(res.violation.code);
      if (res.events.some((e) => e.type === 'ROUND_ENDED')) {
        const plan = planFromEngine(loadedMatchOf(state, 1, 0), res.state, res.events);
        expect(plan.roundsFinished.map((r) => r.number)).toEqual([1]);
        expect(plan.roundsStarted).toEqual([{ number: 2, starter: res.state.round.starter }]);
        expect(plan.events.map((e) => e.type).slice(-2)).toEqual(['ROUND_ENDED', 'ROUND_STARTED']);
        return;
      }
      state = res.state;
    }
    throw new Error('no round ended');
  });
});
