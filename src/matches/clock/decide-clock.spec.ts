import { apply } from '../../domain/index.js';
import { bareCommit } from '../commit-plan.js';
import type { Decision } from '../command-runner.js';
import type { LoadedMatch } from '../loaded-match.js';
import { startedMatch } from '../spec/loaded-matches.js';
import { clockUpdate } from './clock-commit.js';
import { resolveClock, type ClockRequest } from './clock-settings.js';
import { initialClock } from './clock-state.js';
import { decideClockWork } from './decide-clock.js';

function commitOf(d: Decision) {
  if (!('commit' in d)) throw new Error('expected a commit');
  return d.commit;
}

const T0 = 1_700_000_000_000;

/** A started two-player match whose clock began at T0 (as the commit that started it would set it). */
function clocked(req: ClockRequest, timeouts = [0, 0]): LoadedMatch {
  const r = startedMatch(['a', 'b']);
  const clock = resolveClock(req, 1);
  const waiting: LoadedMatch = { ...r, status: 'WAITING', state: null, clock };
  const start = clockUpdate(waiting, bareCommit(waiting, { status: 'IN_PROGRESS', state: r.state, events: [] }), r.seats, T0)!;
  return { ...r, clock, clockState: { ...start.state, timeouts } };
}

describe('decideClockWork', () => {
  const perMove = { kind: 'PER_MOVE', moveSeconds: 100 } as const;

  it('does nothing before 80 % of the turn, without a clock, or once the match is over', () => {
    const r = clocked(perMove);
    expect(decideClockWork(r, T0 + 79_999)).toEqual({ unchanged: true });
    expect(decideClockWork({ ...r, clock: null }, T0 + 500_000)).toEqual({ unchanged: true });
    expect(decideClockWork({ ...r, status: 'FINISHED' }, T0 + 500_000)).toEqual({ unchanged: true });
    expect(decideClockWork({ ...r, clockState: initialClock(r.clock!, 2) }, T0 + 500_000)).toEqual({ unchanged: true });
  });

  it('sends DEADLINE_SOON for the seat to move at 80 %, once', () => {
    const r = clocked(perMove);
    const seat = r.state!.round.turn;
    const c = commitOf(decideClockWork(r, T0 + 80_000));
    expect(c.events).toEqual([{ type: 'DEADLINE_SOON', moveSeq: null, seat }]);
    expect(c.moves).toEqual([]);
    expect(c.clockWork).toEqual({ warned: true });
    const after = clockUpdate(r, c, r.seats, T0 + 80_000)!;
    expect(after.state.warned).toBe(true);
    expect(after.dueAt).toEqual(new Date(T0 + 100_000));
    expect(decideClockWork({ ...r, clockState: after.state }, T0 + 90_000)).toEqual({ unchanged: true });
  });

  it("at the deadline, BOT_PLAYS: TIMED_OUT, then the greedy bot's moves for the seat until its turn is over", () => {
    const r = clocked(perMove);
    const seat = r.state!.round.turn;
    const c = commitOf(decideClockWork(r, T0 + 100_000));
    expect(c.events[0]).toEqual({ type: 'TIMED_OUT', moveSeq: null, seat });
    expect(c.moves.length).toBeGreaterThan(0);
    expect(c.moves[0].seat).toBe(seat);
    expect(c.clockWork?.timedOut).toEqual({ seat, moves: c.moves.filter((m) => m.seat === seat).map((m) => m.seq) });
    expect(c.state!.round.turn).not.toBe(seat);
    // The moves are the engine's own: replaying them gives the committed state.
    let state = r.state!;
    for (const m of c.moves.filter((x) => x.type !== 'PASS')) {
      const res = apply(state, m.type === 'DRAW' ? { type: 'DRAW', seat: m.seat } : { type: 'PLAY', seat: m.seat, tile: m.tile!, end: m.end });
      if (!res.ok) throw new Error(res.violation.message);
      state = res.state;
    }
    expect(state).toEqual(c.state);
    const after = clockUpdate(r, c, r.seats, T0 + 100_000)!;
    expect(after.state.timeouts[seat]).toBe(1);
    expect(after.state.seat).toBe(c.state!.round.turn);
    expect(after.deadlineAt).toEqual(new Date(T0 + 200_000));
  });

  it('forfeits after forfeitAfter timeouts in a row: TIMED_OUT, MATCH_FINISHED, the other side wins', () => {
    const r0 = clocked({ ...perMove, forfeitAfter: 2 });
    const seat = r0.state!.round.turn;
    const timeouts = [0, 0];
    timeouts[seat] = 1;
    const r = { ...r0, clockState: { ...r0.clockState!, timeouts } };
    const c = commitOf(decideClockWork(r, T0 + 100_000));
    expect(c.events).toEqual([
      { type: 'TIMED_OUT', moveSeq: null, seat },
      { type: 'MATCH_FINISHED', moveSeq: null },
    ]);
    expect(c.status).toBe('FINISHED');
    expect(c.winnerTeam).toBe(r.state!.teamOfSeat[1 - seat]);
    expect(c.unrated).toBe(true); // nothing played out yet: no stats, as for a resignation
    const after = clockUpdate(r, c, r.seats, T0 + 100_000)!;
    expect(after).toMatchObject({ deadlineAt: null, dueAt: null });
  });

  it('forfeits at the first timeout with FORFEIT, and never with forfeitAfter 0', () => {
    const seatOf = (r: LoadedMatch) => r.state!.round.turn;
    const f = clocked({ ...perMove, onTimeout: 'FORFEIT' });
    expect(commitOf(decideClockWork(f, T0 + 100_000)).status).toBe('FINISHED');
    const never = clocked({ ...perMove, forfeitAfter: 0 }, [50, 50]);
    expect(commitOf(decideClockWork(never, T0 + 100_000)).moves[0].seat).toBe(seatOf(never));
  });

  it('skips DEADLINE_SOON when the sweep comes only after the deadline', () => {
    const r = clocked(perMove);
    expect(commitOf(decideClockWork(r, T0 + 150_000)).events[0].type).toBe('TIMED_OUT');
  });
});
