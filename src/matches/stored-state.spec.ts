import { apply, legalMoves, newMatch, resolveRules, type MatchState, type MoveRecord } from '../domain/index.js';
import { testDeal } from '../domain/spec/kit.js';
import { storedStateJson, withRoundMoves, type RoundMoveRow, type StoredMatchState } from './stored-state.js';

/** The current round's moves as `Move` rows come back from MATCH_COLUMNS. */
function rowsOf(moves: readonly MoveRecord[]): RoundMoveRow[] {
  return moves.map((m) => [m.seq, m.seat, m.type, m.tile?.high ?? null, m.tile?.low ?? null, m.end, m.points, m.count]);
}

describe('the stored match state', () => {
  it('leaves out the round log, and the log from Move rows restores the exact state, at every move of a match', () => {
    let { state } = newMatch({ seats: 3, partnerships: false, rules: resolveRules({ targetScore: 100, reserve: 2 }), deal: testDeal(5, 3) });
    const kinds = new Set<string>();
    for (let i = 0; state.status === 'IN_PROGRESS'; i++) {
      const stored = JSON.parse(storedStateJson(state)) as StoredMatchState;
      expect('moves' in stored.round).toBe(false);
      expect(withRoundMoves(stored, rowsOf(state.round.moves))).toEqual(state);
      state.round.moves.forEach((m) => kinds.add(m.type));
      const seat = state.round.turn;
      const moves = legalMoves(state, seat);
      const pick = moves[i % Math.max(moves.length, 1)];
      const res = apply(state, pick ? { type: 'PLAY', seat, tile: pick.tile, end: pick.end } : { type: 'DRAW', seat });
      if (!res.ok) throw new Error(res.violation.code);
      state = res.state;
    }
    expect(withRoundMoves(JSON.parse(storedStateJson(state)) as StoredMatchState, rowsOf(state.round.moves))).toEqual(state);
    expect([...kinds].sort()).toEqual(['DRAW', 'PASS', 'PLAY']);
  });

  it('gives a round without moves an empty log, and no state for none', () => {
    const { state } = newMatch({ seats: 2, partnerships: false, rules: resolveRules({}), deal: testDeal(1, 2) });
    expect(withRoundMoves(JSON.parse(storedStateJson(state)) as StoredMatchState, null)?.round.moves).toEqual(state.round.moves);
    expect(withRoundMoves(null, null)).toBeNull();
  });
});
