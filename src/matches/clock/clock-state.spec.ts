import { resolveClock } from './clock-settings.js';
import { clockAfter, clockDueAt, initialClock, turnBegins, type ClockChange, type ClockState } from './clock-state.js';

/** A fake clock: the tests move time by hand. */
function fakeClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const bank = resolveClock({ kind: 'BANK', bankSeconds: 100, incrementSeconds: 10, maxBankSeconds: 120 }, 1);
const perMove = resolveClock({ kind: 'PER_MOVE', moveSeconds: 60 }, 1);

const change = (c: Partial<ClockChange>): ClockChange => ({
  before: null,
  after: null,
  movers: [],
  playerMoved: null,
  timedOut: null,
  warned: false,
  ...c,
});
const turn = (seat: number, round = 1, isBot = false) => ({ seat, round, isBot });

describe('the running clock', () => {
  it('starts the first turn at the start, with its deadline and its 80 % point', () => {
    const clock = fakeClock();
    const s = clockAfter(perMove, initialClock(perMove, 2), change({ after: turn(1) }), clock.now());
    expect(s).toMatchObject({ seat: 1, since: clock.now(), deadline: clock.now() + 60_000, warned: false });
    expect(clockDueAt(s)).toBe(clock.now() + 48_000);
    expect(clockDueAt({ ...s, warned: true })).toBe(s.deadline);
  });

  it('charges a BANK seat for its turn, adds the increment (capped) and starts the next seat on its own bank', () => {
    const clock = fakeClock();
    let s: ClockState = clockAfter(bank, initialClock(bank, 2), change({ after: turn(0) }), clock.now());
    clock.advance(30_000);
    s = clockAfter(bank, s, change({ before: turn(0), after: turn(1), movers: [0], playerMoved: 0 }), clock.now());
    expect(s.bankMs).toEqual([80_000, 100_000]);
    expect(s).toMatchObject({ seat: 1, since: clock.now(), deadline: clock.now() + 100_000 });
    clock.advance(1_000);
    s = clockAfter(bank, s, change({ before: turn(1), after: turn(0), movers: [1], playerMoved: 1 }), clock.now());
    expect(s.bankMs).toEqual([80_000, 109_000]);
    clock.advance(1_000);
    s = clockAfter(bank, s, change({ before: turn(0), after: turn(1), movers: [0], playerMoved: 0 }), clock.now());
    expect(s.bankMs).toEqual([89_000, 109_000]);
    clock.advance(0);
    s = clockAfter(bank, s, change({ before: turn(1), after: turn(0), movers: [1], playerMoved: 1 }), clock.now());
    expect(s.bankMs).toEqual([89_000, 119_000]);
    s = clockAfter(bank, s, change({ before: turn(0), after: turn(1), movers: [0], playerMoved: 0 }), clock.now());
    s = clockAfter(bank, s, change({ before: turn(1), after: turn(0), movers: [1], playerMoved: 1 }), clock.now());
    expect(s.bankMs[1]).toBe(120_000); // capped at maxBankSeconds
  });

  it('keeps one turn through a draw and restarts on a new round, after automatic passes, and when a bot is to move', () => {
    const clock = fakeClock();
    let s = clockAfter(perMove, initialClock(perMove, 3), change({ after: turn(0) }), clock.now());
    const first = s.deadline;
    clock.advance(5_000);
    s = clockAfter(perMove, s, change({ before: turn(0), after: turn(0), movers: [0], playerMoved: 0 }), clock.now()); // a draw
    expect(s.deadline).toBe(first);
    clock.advance(5_000);
    // Seat 0 plays, seats 1 and 2 pass automatically, and it is seat 0's turn again: a new turn.
    expect(turnBegins(change({ before: turn(0), after: turn(0), movers: [0, 1, 2] }))).toBe(true);
    s = clockAfter(perMove, s, change({ before: turn(0), after: turn(0), movers: [0, 1, 2], playerMoved: 0 }), clock.now());
    expect(s.deadline).toBe(clock.now() + 60_000);
    clock.advance(1_000);
    s = clockAfter(perMove, s, change({ before: turn(0), after: turn(2, 2), movers: [0] }), clock.now());
    expect(s).toMatchObject({ seat: 2, deadline: clock.now() + 60_000 });
    s = clockAfter(perMove, s, change({ before: turn(2, 2), after: turn(1, 2, true), movers: [2] }), clock.now());
    expect(s).toMatchObject({ seat: null, since: null, deadline: null });
    expect(clockDueAt(s)).toBeNull();
  });

  it('sends DEADLINE_SOON once per turn, and forgets it when the next turn begins', () => {
    const clock = fakeClock();
    let s = clockAfter(perMove, initialClock(perMove, 2), change({ after: turn(0) }), clock.now());
    s = clockAfter(perMove, s, change({ before: turn(0), after: turn(0), warned: true }), clock.now());
    expect(s.warned).toBe(true);
    s = clockAfter(perMove, s, change({ before: turn(0), after: turn(0), movers: [0], playerMoved: 0 }), clock.now()); // a draw
    expect(s.warned).toBe(true);
    s = clockAfter(perMove, s, change({ before: turn(0), after: turn(1), movers: [0], playerMoved: 0 }), clock.now());
    expect(s.warned).toBe(false);
  });

  it('counts timeouts in a row per seat, resets them on a move of the seat itself, and remembers timed-out moves', () => {
    let s = clockAfter(perMove, initialClock(perMove, 2), change({ after: turn(0) }), 0);
    s = clockAfter(perMove, s, change({ before: turn(0), after: turn(1), movers: [0], timedOut: { seat: 0, moves: [5] } }), 60_000);
    s = clockAfter(perMove, s, change({ before: turn(1), after: turn(0), movers: [1], playerMoved: 1 }), 61_000);
    s = clockAfter(perMove, s, change({ before: turn(0), after: turn(1), movers: [0, 0], timedOut: { seat: 0, moves: [7, 8] } }), 121_000);
    expect(s.timeouts).toEqual([2, 0]);
    expect(s.timedOutMoves).toEqual([5, 7, 8]);
    s = clockAfter(perMove, s, change({ before: turn(1), after: turn(0), movers: [1] }), 122_000); // a bot move: no reset
    s = clockAfter(perMove, s, change({ before: turn(0), after: turn(1), movers: [0], playerMoved: 0 }), 123_000);
    expect(s.timeouts).toEqual([0, 0]);
  });

  it('stops when the match ends, charging the last mover', () => {
    let s = clockAfter(bank, initialClock(bank, 2), change({ after: turn(0) }), 0);
    s = clockAfter(bank, s, change({ before: turn(0), after: null, movers: [0], playerMoved: 0 }), 40_000);
    expect(s).toMatchObject({ seat: null, deadline: null, bankMs: [70_000, 100_000] });
    expect(clockDueAt(s)).toBeNull();
  });
});
