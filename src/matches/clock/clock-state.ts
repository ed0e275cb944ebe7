import type { MatchState, MoveRecord } from '../../domain/index.js';
import { bankAfterTurn, deadlineOf, startingBankMs, warnAt } from './clock-rules.js';
import type { ClockSettings } from './clock-settings.js';

/**
 * A match's running clock: plain JSON in the Match's "clockState" column, rewritten by the same
 * statement as every commit (the compare-and-set), so it never disagrees with the turn it times.
 * Times are milliseconds since the epoch.
 */
export interface ClockState {
  /** the seat whose time runs; null when none does (a bot to move, or the match not in progress) */
  readonly seat: number | null;
  /** when that seat's turn began */
  readonly since: number | null;
  /** when it runs out */
  readonly deadline: number | null;
  /** DEADLINE_SOON was sent for this turn */
  readonly warned: boolean;
  /** BANK: each seat's bank as of the start of its turn (the seat to move: of this turn); PER_MOVE: zeros */
  readonly bankMs: readonly number[];
  /** timeouts in a row, per seat (a player's own move sets theirs back to 0) */
  readonly timeouts: readonly number[];
  /** Move.seq of every move the server made for a timed-out seat */
  readonly timedOutMoves: readonly number[];
}

/** What a command means for the clock, set by the decision that made it (decide-clock.ts). */
export interface ClockWork {
  /** DEADLINE_SOON was sent for the seat to move */
  warned?: boolean;
  /** the server acted for this seat, whose time ran out, with these moves (Move.seq) */
  timedOut?: { seat: number; moves: number[] };
}

/** The clock once a commit holds: the JSON state and the two indexed due times of the Match row. */
export interface ClockUpdate {
  state: ClockState;
  /** when the seat to move runs out (Match.deadline) */
  deadlineAt: Date | null;
  /** the next clock work: min(the 80 % point, the deadline) */
  dueAt: Date | null;
}

/** What the clock needs to know of one commit. */
export interface ClockChange {
  /** the turn before and after the commit: null when the match is not (or no longer) in progress */
  readonly before: { seat: number; round: number } | null;
  readonly after: { seat: number; round: number; isBot: boolean } | null;
  /** the seats of the commit's moves, in order (the engine may pass several seats in one commit) */
  readonly movers: readonly number[];
  /** a player's own move by this seat: its timeouts in a row start again from 0 */
  readonly playerMoved: number | null;
  /** the commit is the server acting for this timed-out seat, with the moves it made for it */
  readonly timedOut: { seat: number; moves: readonly number[] } | null;
  /** the commit sent DEADLINE_SOON */
  readonly warned: boolean;
}

export function initialClock(settings: ClockSettings, seats: number): ClockState {
  return {
    seat: null,
    since: null,
    deadline: null,
    warned: false,
    bankMs: Array.from({ length: seats }, () => startingBankMs(settings)),
    timeouts: Array.from({ length: seats }, () => 0),
    timedOutMoves: [],
  };
}

/**
 * Whether a commit begins a turn: the match starts, a round begins, the turn moves to another
 * seat, or it comes back to the same seat because every other seat passed in the same commit.
 * A seat's own draw (and the play it must then make) stays within its turn.
 */
export function turnBegins(change: Pick<ClockChange, 'before' | 'after' | 'movers'>): boolean {
  const { before, after } = change;
  if (!after) return false;
  return !before || before.seat !== after.seat || before.round !== after.round || change.movers.some((s) => s !== after.seat);
}

/**
 * The clock once a commit holds, at `now`. The seat whose turn ends pays for the time it took
 * (BANK: its bank less the time, plus the increment, capped); a turn that begins for a human seat
 * gets its deadline; a bot's turn runs no clock.
 */
export function clockAfter(settings: ClockSettings, prev: ClockState, change: ClockChange, now: number): ClockState {
  const begins = turnBegins(change);
  const ends = prev.seat !== null && (begins || change.after === null);
  const bankMs = [...prev.bankMs];
  if (ends) bankMs[prev.seat] = bankAfterTurn(settings, bankMs[prev.seat], now - prev.since!);
  const timeouts = [...prev.timeouts];
  if (change.playerMoved !== null) timeouts[change.playerMoved] = 0;
  if (change.timedOut) timeouts[change.timedOut.seat] += 1;
  const timedOutMoves = change.timedOut ? [...prev.timedOutMoves, ...change.timedOut.moves] : prev.timedOutMoves;
  const kept = { bankMs, timeouts, timedOutMoves };
  const after = change.after;
  if (!after || (begins && after.isBot)) return { ...kept, seat: null, since: null, deadline: null, warned: false };
  if (begins) return { ...kept, seat: after.seat, since: now, deadline: deadlineOf(settings, now, bankMs[after.seat]), warned: false };
  return { ...kept, seat: prev.seat, since: prev.since, deadline: prev.deadline, warned: prev.warned || change.warned };
}

/** The next clock work of a match: DEADLINE_SOON at 80 % of the turn, then the deadline; null: none. */
export function clockDueAt(state: ClockState | null): number | null {
  if (!state || state.deadline === null || state.since === null) return null;
  return state.warned ? state.deadline : warnAt(state.since, state.deadline);
}

/** The turn of an engine state as the clock sees it; null unless in progress. */
export function turnOf(state: MatchState | null, inProgress: boolean): { seat: number; round: number } | null {
  return inProgress && state && state.status === 'IN_PROGRESS' ? { seat: state.round.turn, round: state.round.number } : null;
}

/** The seats of a commit's moves, in order. */
export function moversOf(moves: readonly MoveRecord[]): number[] {
  return moves.map((m) => m.seat);
}
