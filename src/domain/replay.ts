/**
 * Replaying a match from its config and the commanded actions. Passes are automatic, so the
 * stored PASS records are skipped and must come out identical.
 */
import { apply, newMatch } from './match.js';
import type { Action, MatchConfig, MatchState, MoveRecord } from './types.js';

/** The commands behind a move log: PLAY and DRAW records become actions; PASS records are dropped. */
export function actionsFromMoves(moves: readonly MoveRecord[]): Action[] {
  const out: Action[] = [];
  for (const m of moves) {
    if (m.type === 'PLAY' && m.tile !== null) out.push({ type: 'PLAY', seat: m.seat, tile: m.tile, end: m.end });
    else if (m.type === 'DRAW') out.push({ type: 'DRAW', seat: m.seat });
  }
  return out;
}

/** Throws (with the action's index and the violation) when an action is refused. */
export function replayMatch(config: MatchConfig, actions: readonly Action[]): MatchState {
  let state = newMatch(config).state;
  actions.forEach((action, i) => {
    const res = apply(state, action);
    if (!res.ok) throw new Error(`replay: action ${i} refused: ${res.violation.code} (${res.violation.message})`);
    state = res.state;
  });
  return state;
}
