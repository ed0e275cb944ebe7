import type { Commit, LoadedMatch, LoadedSeat } from '../loaded-match.js';
import { clockAfter, clockDueAt, initialClock, moversOf, turnOf, type ClockUpdate } from './clock-state.js';

const dateOf = (ms: number | null) => (ms === null ? null : new Date(ms));

/**
 * The clock after a commit at `now`, for every command alike (CommandRunner calls it as it calls
 * botToMove); undefined for a match without a clock, whose columns the commit leaves alone.
 */
export function clockUpdate(record: LoadedMatch, commit: Commit, seats: readonly LoadedSeat[], now: number): ClockUpdate | undefined {
  const settings = record.clock;
  if (!settings) return undefined;
  const prev = record.clockState ?? initialClock(settings, record.seatCount);
  const next = turnOf(commit.state, commit.status === 'IN_PROGRESS');
  const moved = commit.playerId != null && commit.moves.length > 0;
  const state = clockAfter(
    settings,
    prev,
    {
      before: turnOf(record.state, record.status === 'IN_PROGRESS'),
      after: next && { ...next, isBot: seats[next.seat]?.isBot ?? false },
      movers: moversOf(commit.moves),
      playerMoved: moved ? commit.moves[0].seat : null,
      timedOut: commit.clockWork?.timedOut ?? null,
      warned: commit.clockWork?.warned ?? false,
    },
    now,
  );
  return { state, deadlineAt: dateOf(state.deadline), dueAt: dateOf(clockDueAt(state)) };
}
