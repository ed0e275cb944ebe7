/**
 * Where the service reads the game's time: injected (CLOCK; the database's, DatabaseClock), so
 * every instance agrees on it and tests can drive deadlines with a fake clock. Everything that
 * computes with time takes `now` as an argument (clock-rules.ts).
 */
export interface Clock {
  /** milliseconds since the epoch */
  now(): number;
}

export const CLOCK = Symbol('CLOCK');
