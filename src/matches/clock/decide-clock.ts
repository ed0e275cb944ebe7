import { apply, botSeed, chooseBotAction, viewFor, type DomainEvent, type MatchState } from '../../domain/index.js';
import { bareCommit, planFromEngine } from '../commit-plan.js';
import type { Decision } from '../command-runner.js';
import { forfeitCommit } from '../decide-turn.js';
import type { LoadedMatch } from '../loaded-match.js';
import { forfeits } from './clock-rules.js';
import { clockDueAt } from './clock-state.js';

/** A runaway guard: a turn is a few draws and one play at most. */
const MAX_MOVES_IN_A_TURN = 32;

/**
 * What a match's clock calls for at `now`, decided on a fresh read like any command, so a player's
 * last-second move and the sweeper (of any instance) racing it give one outcome: whichever commits
 * first wins the compare-and-set, and the other re-decides on what it left.
 * - nothing: no clock runs, or its next work is not due (a move started a new turn meanwhile);
 * - DEADLINE_SOON: 80 % of the turn's time is gone (once per turn; skipped when already late);
 * - a timeout: TIMED_OUT, then the greedy bot's moves for the seat until its turn is over (BOT_PLAYS),
 *   or the seat's side loses (FORFEIT, or forfeitAfter timeouts in a row).
 */
export function decideClockWork(r: LoadedMatch, now: number): Decision {
  const settings = r.clock;
  const clock = r.clockState;
  const state = r.state;
  if (r.status !== 'IN_PROGRESS' || !state || !settings || !clock || clock.seat === null || clock.deadline === null) return { unchanged: true };
  const seat = clock.seat;
  const due = clockDueAt(clock);
  if (state.round.turn !== seat || due === null || now < due) return { unchanged: true };
  if (now < clock.deadline) {
    if (clock.warned) return { unchanged: true };
    return {
      commit: bareCommit(r, { status: 'IN_PROGRESS', events: [{ type: 'DEADLINE_SOON', moveSeq: null, seat }], clockWork: { warned: true } }),
    };
  }
  const timedOut = { type: 'TIMED_OUT' as const, moveSeq: null, seat };
  if (forfeits(settings, clock.timeouts[seat] + 1)) {
    const commit = forfeitCommit(r, seat, timedOut);
    return { commit: { ...commit, clockWork: { timedOut: { seat, moves: [] } } } };
  }
  const { next, events, moves } = playTurnFor(state, seat);
  const commit = planFromEngine(r, next, events, { leadEvents: [timedOut] });
  return { commit: { ...commit, clockWork: { timedOut: { seat, moves } } } };
}

/**
 * The greedy bot's moves for `seat` until its turn is over: one play, or draws and then a play
 * (or the automatic pass an empty boneyard brings). Returns the Move.seq of each of its moves.
 */
function playTurnFor(start: MatchState, seat: number): { next: MatchState; events: DomainEvent[]; moves: number[] } {
  let state = start;
  const events: DomainEvent[] = [];
  const moves: number[] = [];
  for (let i = 0; i < MAX_MOVES_IN_A_TURN; i++) {
    const action = chooseBotAction(viewFor(state, seat), 'greedy', botSeed(state.config.deal, state.lastSeq));
    const result = apply(state, action);
    if (!result.ok) throw new Error(`the greedy bot chose an illegal move for a timed-out seat: ${result.violation.message}`);
    events.push(...result.events);
    const made = result.events.flatMap((e) => ('move' in e ? [e.move] : []));
    if (made[0]) moves.push(made[0].seq);
    state = result.state;
    const over =
      state.status !== 'IN_PROGRESS' || state.round.number !== start.round.number || state.round.turn !== seat || made.some((m) => m.seat !== seat);
    if (over) break;
  }
  return { next: state, events, moves };
}
